/**
 * Waits until a condition holds, checking every few milliseconds: a test waits on what it needs
 * instead of sleeping a fixed time that a busy machine outruns (issue 45 point 8).
 */
export async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
