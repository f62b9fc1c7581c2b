// Stopping the server as an operator or a service manager does (issue 34, item 4): SIGTERM to
// `npm start` — npm, a shell, server/start.mjs and server/server.mjs underneath — ends every
// process within 10 s, closes the meeting event streams with a retry hint rather than cutting
// them, and leaves the port and the embedded database's folder free for the next start.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { expect, test } from '@playwright/test';
import { E2E_SESSION_SECRET } from './support/constants.mjs';
import { extraPort, seed, tempDataDir } from './support/instances';

test.describe.configure({ timeout: 120_000 });

const port = extraPort(20);
const url = `http://localhost:${port}`;

function startWithNpm(dataDir: string): { child: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_URL: url,
    SESSION_SECRET: E2E_SESSION_SECRET,
    MAIL_LOG: '1',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.SMTP_URL;
  const child = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function waitHealthy(started: { child: ChildProcess; output: () => string }) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`npm start exited: ${started.output()}`);
    if (
      await fetch(`${url}/api/health`).then(
        (answer) => answer.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`npm start did not answer: ${started.output()}`);
}

/** Every process below `pid` (npm's shell, server/start.mjs, server/server.mjs). */
function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of table) {
      if (ppid !== parent) continue;
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portIsFree = () =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });

/** Joins the seeded room and opens the participant's event stream, reading it in the background. */
async function openEventStream(meetingId: string) {
  const answer = await fetch(`${url}/api/meeting/${meetingId}/join`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Origin: url },
    body: JSON.stringify({ name: 'Stayer' }),
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toContain('text/event-stream');
  let text = '';
  const decoder = new TextDecoder();
  const ended = (async () => {
    const reader = answer.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'ended' as const;
      text += decoder.decode(value, { stream: true });
    }
  })().catch((error: unknown) => `cut: ${String(error)}`);
  return { ended, text: () => text };
}

test('SIGTERM to npm start ends every process within 10 s, ends event streams with a retry hint, and frees the port and data folder', async () => {
  const data = tempDataDir();
  let started: ReturnType<typeof startWithNpm> | undefined;
  try {
    const { meetingId } = seed({ DATA_DIR: data.dir }, 'shutdown@enclave.local');
    started = startWithNpm(data.dir);
    await waitHealthy(started);
    const npm = started.child.pid!;
    const tree = descendants(npm);
    expect(tree.length).toBeGreaterThanOrEqual(2); // server/start.mjs and server/server.mjs at least

    const stream = await openEventStream(meetingId);
    await expect.poll(() => stream.text()).toContain('event: joined');

    const signalled = Date.now();
    process.kill(npm, 'SIGTERM');
    // The stream ends cleanly, told to come back soon (lib/meeting-server/stream.ts).
    expect(await stream.ended).toBe('ended');
    expect(stream.text()).toMatch(/retry: 500\n\n$/);
    await expect.poll(() => [npm, ...tree].filter(alive), { timeout: 10_000, intervals: [100] }).toEqual([]);
    const stoppedAfter = Date.now() - signalled;
    expect(stoppedAfter).toBeLessThan(10_000);
    test.info().annotations.push({ type: 'stopped after', description: `${stoppedAfter} ms` });
    expect(started.output()).toContain('"message":"stopped"');
    expect(await portIsFree()).toBe(true);

    // The embedded database was closed, not abandoned: the next start opens the same folder and
    // still knows the room.
    started = startWithNpm(data.dir);
    await waitHealthy(started);
    const again = await fetch(`${url}/api/meeting/${meetingId}/join`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: url },
      body: JSON.stringify({ name: 'Returner' }),
    });
    expect(again.status).toBe(200);
  } finally {
    if (started && started.child.exitCode === null) {
      const pids = [started.child.pid!, ...descendants(started.child.pid!)];
      started.child.kill('SIGTERM');
      await expect
        .poll(() => pids.filter(alive), { timeout: 10_000 })
        .toEqual([])
        .catch(() => pids.forEach((pid) => alive(pid) && process.kill(pid, 'SIGKILL')));
    }
    data.remove();
  }
});
