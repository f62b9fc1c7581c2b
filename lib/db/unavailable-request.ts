// A page cannot set its own status (Next.js's app router allows only notFound, redirect,
// forbidden, unauthorized), so a page that failed because the database could not be reached
// says so to the production server instead: server/server.mjs runs each request in an
// AsyncLocalStorage that it puts on the seam (REQUEST_STATE, lib/server-seam/seam.mjs), and
// answers such a page's 500 as 503 with Retry-After (docs/decisions.md, "A page during a database outage").
import { fromSeam, REQUEST_STATE } from '@/lib/server-seam/seam.mjs';

export interface RequestState {
  /** The first code that said the database is unavailable (ECONNREFUSED, 57P01…). */
  databaseUnavailable?: string;
}

/**
 * Marks the current request as having met an unavailable database. False when it was marked
 * already or runs outside server/server.mjs (next dev, tests, the worker).
 */
export function markDatabaseUnavailable(code: string): boolean {
  const state = fromSeam(REQUEST_STATE)?.getStore();
  if (!state || state.databaseUnavailable) return false;
  state.databaseUnavailable = code;
  return true;
}
