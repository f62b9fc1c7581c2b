import 'server-only';
import { calendarFastPath } from '@/lib/events/calendar-fast-path';
import { signalFastPath } from '@/lib/meeting-server/signal-fast-path';
import { FAST_PATHS, putOnSeam, type FastPath } from '@/lib/server-seam/seam.mjs';

/**
 * Every route the server layer answers without Next.js's routing (issue 17), in the order
 * server/server.mjs asks them. Each is optional (docs/decisions.md, "A fast path is optional"):
 * the route answers the same without it, under `next start` or when it passes a request on;
 * tests/e2e/fast-paths.spec.ts asks each of them both ways.
 */
export const fastPaths: readonly FastPath[] = [calendarFastPath, signalFastPath];

/** Called by instrumentation.ts (lib/server-start.ts) when the server starts. */
export function registerFastPaths(): void {
  putOnSeam(FAST_PATHS, fastPaths);
}
