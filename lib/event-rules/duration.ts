// A meeting's length as SPEC point 3 writes it (h:mm), apart from the zod schemas so that the
// calendar can format it in the browser.

export function formatDuration(minutes: number): string {
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}
