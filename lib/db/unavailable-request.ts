// A page cannot set its own status (Next.js's app router allows only notFound, redirect,
// forbidden, unauthorized), so a page that failed because the database could not be reached
// says so to the production server instead: scripts/server.mjs runs each request in an
// AsyncLocalStorage that it publishes under this symbol, and answers such a page's 500 as 503
// with Retry-After (docs/decisions.md, "A page during a database outage").

/** The key both sides agree on: the server is plain Node, outside Next.js's bundles. */
export const REQUEST_STATE = Symbol.for('enclave.request-state');

export interface RequestState {
  /** The first code that said the database is unavailable (ECONNREFUSED, 57P01…). */
  databaseUnavailable?: string;
}

interface StateStorage {
  getStore(): RequestState | undefined;
}

/**
 * Marks the current request as having met an unavailable database. False when it was marked
 * already or runs outside scripts/server.mjs (next dev, tests, the worker).
 */
export function markDatabaseUnavailable(code: string): boolean {
  const storage = (globalThis as { [REQUEST_STATE]?: StateStorage })[REQUEST_STATE];
  const state = storage?.getStore();
  if (!state || state.databaseUnavailable) return false;
  state.databaseUnavailable = code;
  return true;
}
