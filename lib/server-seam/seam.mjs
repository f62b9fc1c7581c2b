// The seam between the server layer (server/*.mjs: plain Node, started before Next.js compiles or
// loads anything, never bundled) and the app (bundled by Next.js). They share one process but no
// module graph, so they meet on globalThis under Symbol.for keys: every key is named here, and
// seam.d.mts types what is on each. Plain JavaScript, so that server/server.mjs imports it as it is.

/** Each request's AsyncLocalStorage: opened by the server layer, filled in by the app (lib/request-context.ts). */
export const REQUEST_STATE = Symbol.for('enclave.request-state');
/** Called by the server layer as each request comes in: its id and metrics (lib/metrics/request-start.ts). */
export const REQUEST_START = Symbol.for('enclave.requestStart');
/** The routes the server layer may answer without Next.js's routing (lib/fast-paths.ts). */
export const FAST_PATHS = Symbol.for('enclave.fastPaths');
/** How the server layer stops the app's jobs and connections (lib/server-shutdown.ts). */
export const SHUTDOWN_HOOKS = Symbol.for('enclave.shutdown');
/**
 * How instrumentation.ts's onRequestError, also built for the Edge runtime, counts a page's
 * database error without importing prom-client (lib/metrics/database.ts).
 */
export const COUNT_DATABASE_ERROR = Symbol.for('enclave.countDatabaseError');

/** What is on the seam under `key`, or undefined before its side has put it there. */
export function fromSeam(key) {
  return globalThis[key];
}

/** Puts `value` on the seam under `key` and gives it back. */
export function putOnSeam(key, value) {
  globalThis[key] = value;
  return value;
}
