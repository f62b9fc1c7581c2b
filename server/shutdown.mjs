// Graceful shutdown (docs/self-hosting.md "Stopping"): SIGTERM or SIGINT — or the end of
// server/start.mjs, seen as the IPC channel closing — stops taking connections, ends the
// meeting event streams with a retry hint and stops the background jobs (lib/server-shutdown.ts),
// answers the requests in flight, then lets go of Redis and the database, so that nothing holds
// the port or the data folder. Whatever is still running after STOP_DEADLINE_MS is cut off.
import { fromSeam, SHUTDOWN_HOOKS } from '../lib/server-seam/seam.mjs';

const STOP_DEADLINE_MS = 8_000;

/**
 * Stops `server` and the Next.js `app` on a signal or when the parent process ends. `stopping()`
 * says whether that has begun (an answer then closes its kept-alive connection).
 */
export function stopGracefully(server, app) {
  let stopping = false;
  async function stop(reason) {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    logLine('info', 'shutting down', { reason });
    setTimeout(() => {
      logLine('error', 'shutdown did not finish in time: exiting anyway', { afterMs: Date.now() - started });
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    const closed = new Promise((resolve) => server.close(resolve));
    // A kept-alive connection with no request in flight would otherwise wait out its idle time-out.
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
    server.closeIdleConnections();
    const hooks = fromSeam(SHUTDOWN_HOOKS);
    await hooks?.drain().catch((error) => logLine('warn', 'shutdown: drain failed', { error: String(error) }));
    await closed;
    clearInterval(idleSweep);
    await app.close?.();
    await hooks?.close().catch((error) => logLine('warn', 'shutdown: close failed', { error: String(error) }));
    logLine('info', 'stopped', { afterMs: Date.now() - started });
    process.exit(0);
  }
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(signal));
  // Started by server/start.mjs with an IPC channel: if that process dies, even by SIGKILL, the
  // channel closes and this server stops rather than keep the port and data folder as an orphan.
  process.on('disconnect', () => void stop('parent process ended'));
  return { stopping: () => stopping };
}

function logLine(level, message, fields = {}) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}
