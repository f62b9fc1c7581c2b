// Tells a database that cannot be reached (stopped, restarting, unreachable, overloaded) from a
// bug: the first is answered 503 service_unavailable with Retry-After, the second stays a 500.

/** postgres.js's own codes and Node's socket codes for a connection that failed or broke. */
const connectionCodes = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs for the same: class 08 (connection exception), admin or crash shutdown
 * and "starting up" (57P01-57P03), too many connections (53300), and a statement that ran past
 * statement_timeout (57014), which under a bounded timeout means an overloaded server.
 */
function isUnavailableState(code: string): boolean {
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '57014'].includes(code);
}

/** Seconds a client should wait before trying again (the Retry-After header). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The code that says the database is unavailable, found on `error` or an error it wraps (drizzle's
 * cause, an AggregateError's errors); undefined for any other error.
 */
export function databaseUnavailableCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 5) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (connectionCodes.has(code) || isUnavailableState(code))) return code;
  for (const inner of Array.isArray(errors) ? errors : []) {
    const found = databaseUnavailableCode(inner, depth + 1);
    if (found) return found;
  }
  return databaseUnavailableCode(cause, depth + 1);
}
