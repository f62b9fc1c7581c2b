// One JSON line per event on stdout/stderr. Never pass a password, token or cookie here.
type Fields = Record<string, unknown>;

import { fromSeam, REQUEST_STATE } from '@/lib/server-seam/seam.mjs';

// The request's state (lib/request-context.ts), read from the seam: this module stays free of
// Node.js imports, so that code bundled for any runtime may log.
function requestId(): string | undefined {
  return fromSeam(REQUEST_STATE)?.getStore()?.requestId;
}

function write(level: 'info' | 'warn' | 'error', message: string, fields: Fields = {}) {
  const id = requestId();
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...(id && { requestId: id }), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

export const log = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};

/** The parts of an error that are safe to log (a failed query's without its values). */
export function describeError(error: unknown): Fields {
  withoutQueryValues(error);
  if (error instanceof Error) return { error: error.name, detail: error.message, stack: error.stack };
  return { error: String(error) };
}

/** Removes a property if it can be removed (postgres.js's own are fixed, and not enumerable). */
function drop(target: object, key: string) {
  try {
    delete (target as Record<string, unknown>)[key];
  } catch {
    // Not configurable: left as it is.
  }
}

/**
 * A failed query's error without the values it was sent (issue 44, point 2): drizzle writes them
 * into its message ("params: …"), PGlite onto its error (`params`), and PostgreSQL's `detail`
 * quotes rows and keys ("Failing row contains (…)"): password hashes, a provider's claims,
 * addresses. Changed in place, since the error is thrown on: any log of it, Next's own included,
 * shows the statement (placeholders, no values) and the database's message only. Answers `error`.
 */
export function withoutQueryValues<T>(error: T, depth = 0): T {
  if (!error || typeof error !== 'object' || depth > 4) return error;
  const fields = error as { query?: unknown; params?: unknown; detail?: unknown; cause?: unknown };
  if (error instanceof Error && typeof fields.query === 'string' && fields.params !== undefined && error.message.includes('\nparams: ')) {
    const message = `Failed query: ${fields.query}`;
    // The stack starts with the message it was made with.
    if (error.stack) error.stack = error.stack.replace(error.message, message);
    error.message = message;
  }
  for (const key of ['params', 'parameters', 'queryOptions', 'args', 'detail']) drop(error, key);
  withoutQueryValues(fields.cause, depth + 1);
  return error;
}
