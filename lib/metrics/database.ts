import 'server-only';
import { Counter, Gauge } from 'prom-client';
import { config } from '@/lib/environment';
import { POSTGRES_POOL_MAX } from '@/lib/db/pool';
import { databaseUnavailableCode } from '@/lib/db/unavailable';
import { COUNT_DATABASE_ERROR, putOnSeam } from '@/lib/server-seam/seam.mjs';
import { metric, PREFIX } from './registry';

const errors = metric(
  `${PREFIX}db_errors_total`,
  (registers) =>
    new Counter({
      name: `${PREFIX}db_errors_total`,
      help: 'Database errors that failed a request or a background run: kind "unavailable" (cannot be reached, answered 503) or "query" (any other)',
      labelNames: ['kind'] as const,
      registers,
    }),
);

metric(
  `${PREFIX}db_pool_size`,
  (registers) =>
    new Gauge({
      name: `${PREFIX}db_pool_size`,
      help: 'Connections the database client may open (postgres.js: its pool maximum; the embedded PGlite: 1). In-use and idle are not exposed by postgres.js 3.4',
      labelNames: ['driver'] as const,
      registers,
      collect() {
        this.reset();
        if (config.databaseUrl) this.set({ driver: 'postgres' }, POSTGRES_POOL_MAX);
        else this.set({ driver: 'pglite' }, 1);
      },
    }),
);

/** Whether `error` (or one it wraps) came from the database: its own error or a failed query. */
export function databaseErrorKind(error: unknown): 'unavailable' | 'query' | undefined {
  if (databaseUnavailableCode(error)) return 'unavailable';
  for (let inner = error, depth = 0; inner && typeof inner === 'object' && depth < 6; depth += 1) {
    const { name, code, cause } = inner as { name?: unknown; code?: unknown; cause?: unknown };
    // drizzle wraps every failed query; PostgreSQL's and PGlite's errors carry a SQLSTATE.
    if (name === 'DrizzleQueryError' || name === 'PostgresError') return 'query';
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return 'query';
    inner = cause;
  }
  return undefined;
}

/** Counts `error` when it is a database error; anything else is left alone. */
export function countDatabaseError(error: unknown): void {
  const kind = databaseErrorKind(error);
  if (kind) errors.inc({ kind });
}

/** Puts countDatabaseError on the seam, where instrumentation.ts's onRequestError finds it (a page's error). */
export function registerDatabaseErrorCount(): void {
  putOnSeam(COUNT_DATABASE_ERROR, countDatabaseError);
}
