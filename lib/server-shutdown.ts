import 'server-only';
import { closeDb } from '@/lib/db/client';
import { describeError, log } from '@/lib/log';
import { putOnSeam, SHUTDOWN_HOOKS, type ShutdownHooks } from '@/lib/server-seam/seam.mjs';

/**
 * How the server stops (server/shutdown.mjs on SIGTERM or SIGINT). Two steps around the HTTP
 * server's own close: `drain` first — the background jobs stop taking work and the meeting event
 * streams end with a retry hint, since an open stream would otherwise keep its request "in
 * flight" until the deadline — then, once every request has been answered, `close` lets go of
 * Redis and the database (for the embedded one, its data folder). Put on the seam
 * (lib/server-seam/seam.mjs): the server layer is not bundled with the app, and finds them there.
 */

export function registerShutdown(stopWorkers: (() => void)[]): void {
  const hooks: ShutdownHooks = {
    async drain() {
      for (const stop of stopWorkers) stop();
      const { endStreamsForShutdown } = await import('@/lib/meeting-server/stream');
      const streams = endStreamsForShutdown();
      log.info('shutting down: background jobs stopped, event streams ended', { streams });
    },
    async close() {
      const { closeHub } = await import('@/lib/meeting-server/get-hub');
      await closeHub().catch((error) => log.warn('shutting down: the hub did not close', describeError(error)));
      const { closePlacements } = await import('@/lib/sfu/store');
      await closePlacements().catch((error) => log.warn('shutting down: the SFU placements did not close', describeError(error)));
      const { closeKeptSessions } = await import('@/lib/sfu/janus-kept');
      await closeKeptSessions();
      // The rate limits' connection, and any other still open.
      const { closeRedis } = await import('@/lib/redis');
      await closeRedis().catch((error) => log.warn('shutting down: a Redis connection did not close', describeError(error)));
      await closeDb().catch((error) => log.warn('shutting down: the database did not close', describeError(error)));
    },
  };
  putOnSeam(SHUTDOWN_HOOKS, hooks);
}
