import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

// An arbitrary constant: the advisory lock that keeps two app instances from migrating at once.
const MIGRATION_LOCK_ID = 7_300_517;

type Target =
  | { kind: 'postgres'; url: string; migrationsFolder: string }
  | { kind: 'pglite'; db: PgDatabase<PgQueryResultHKT, Record<string, unknown>>; migrationsFolder: string };

/** Applies the SQL migrations of drizzle/ and makes sure the configuration row exists. */
export async function migrateDatabase(target: Target): Promise<void> {
  if (target.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    // @ts-expect-error -- the PGlite migrator wants its own database type; the shape is the same.
    await migrate(target.db, { migrationsFolder: target.migrationsFolder });
    await target.db.execute(sql`insert into configuration (id) values (1) on conflict do nothing`);
    return;
  }
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  // A single connection, so that the session-level advisory lock covers the whole run.
  const client = postgres(target.url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migrate(drizzle(client), { migrationsFolder: target.migrationsFolder });
    await client`insert into configuration (id) values (1) on conflict do nothing`;
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
