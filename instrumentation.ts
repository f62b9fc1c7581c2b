import { databaseUnavailableCode } from '@/lib/db/unavailable';
import { markDatabaseUnavailable } from '@/lib/db/unavailable-request';
import { log } from '@/lib/log';
import { COUNT_DATABASE_ERROR, fromSeam } from '@/lib/server-seam/seam.mjs';

// Runs once when the server starts (lib/server-start.ts). The Node.js-only work sits behind the
// runtime check Next.js's documentation gives, so that the Edge build leaves it out.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServer } = await import('@/lib/server-start');
    await startServer();
  }
}

/**
 * Every error a page let through. One that says the database cannot be reached marks the
 * request, so that server/server.mjs answers it 503 with Retry-After and the translated
 * "unavailable" page instead of Next.js's 500 (lib/db/unavailable-request.ts). Synchronous, and
 * with static imports: the mark must be there before Next.js writes the error page's status.
 */
export function onRequestError(error: unknown, _request: unknown, context: { routePath: string }) {
  // Counted in enclave_db_errors_total (lib/metrics/database.ts, registered at start): through the
  // seam, so that prom-client stays out of the Edge build of this file.
  fromSeam(COUNT_DATABASE_ERROR)?.(error);
  const code = databaseUnavailableCode(error);
  if (code && markDatabaseUnavailable(code)) log.warn('database unavailable', { code, route: context.routePath });
}
