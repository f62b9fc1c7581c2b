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

/** The parts of an error that are safe to log. */
export function describeError(error: unknown): Fields {
  if (error instanceof Error) return { error: error.name, detail: error.message, stack: error.stack };
  return { error: String(error) };
}
