import { PgPreparedQuery } from 'drizzle-orm/pg-core';
import { withoutQueryValues } from '@/lib/log';

// Issue 44, point 2: a failed query must not carry the values it was sent into any log. Every
// statement drizzle runs (PGlite and PostgreSQL alike, transactions and migrations included) goes
// through PgPreparedQuery's queryWithCache, which wraps a driver's error in DrizzleQueryError with
// the values in its message; the one wrapper here strips them (lib/log.ts, withoutQueryValues)
// before the error travels on, so that no catch, log line or framework message can show them.

const WRAPPED = Symbol.for('enclave.queryErrorsWithoutValues');
type Prototype = { queryWithCache: (...args: unknown[]) => Promise<unknown>; [WRAPPED]?: true };

/** Installs the wrapper once per process (openDatabase calls it). */
export function stripValuesFromQueryErrors(): void {
  // queryWithCache is drizzle's internal method (0.45: pg-core/session.js), absent from its types.
  const prototype = PgPreparedQuery.prototype as unknown as Prototype;
  if (prototype[WRAPPED]) return;
  const original = prototype.queryWithCache;
  if (typeof original !== 'function') throw new Error('drizzle-orm: PgPreparedQuery.queryWithCache is gone; update lib/db/query-errors.ts');
  prototype.queryWithCache = async function (this: unknown, ...args: unknown[]) {
    try {
      return await original.apply(this, args);
    } catch (error) {
      throw withoutQueryValues(error);
    }
  };
  prototype[WRAPPED] = true;
}
