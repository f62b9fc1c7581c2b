/**
 * True when `error` is PostgreSQL's unique violation (SQLSTATE 23505) on the index `index`, as
 * thrown through drizzle (the driver's error is its `cause`). Two requests that both checked an
 * address was free and then insert it meet here: the later one must answer the catalogue's code,
 * not a 500. PGlite names the index `constraint`, postgres.js `constraint_name`.
 */
export function isUniqueViolation(error: unknown, index: string): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const fields = current as { code?: unknown; constraint?: unknown; constraint_name?: unknown; cause?: unknown };
    if (fields.code === '23505') return fields.constraint === index || fields.constraint_name === index;
    current = fields.cause;
  }
  return false;
}

/** The unique index on lower(users.email) (lib/db/schema/accounts.ts). */
export const USERS_EMAIL_INDEX = 'users_email_key';
