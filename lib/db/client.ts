import 'server-only';
import path from 'node:path';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { config } from '@/lib/environment';
import { processSlot } from '@/lib/process-slot';
import * as schema from './schema';
import { migrateDatabase } from './migrate';
import { followChanges } from './change-feed';
import { lockDataDir } from './data-dir-lock';
import { POSTGRES_POOL_MAX } from './pool';
import { stripValuesFromQueryErrors } from './query-errors';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

interface OpenDatabase {
  db: Database;
  close: () => Promise<void>;
}

/**
 * No request waits on the database without end (issue 20): a connection that is not made in 5 s
 * fails, and so does a statement that runs past 20 s; both answer 503 (lib/db/unavailable.ts).
 * postgres.js opens connections lazily, so once the database is back the next query reconnects.
 */
export const BOUNDED_WAITS = {
  connect_timeout: 5,
  connection: { statement_timeout: 20_000 },
  // postgres.js waits up to 20 s (growing with each failure) before it connects again after a
  // lost connection; a query waits that long too. At most 1 s: fast 503s, fast recovery.
  backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
};

/**
 * Opens PostgreSQL (postgres.js) when a URL is given, else the embedded PGlite in `dataDir`
 * (or in memory for `dataDir: 'memory://'`), and applies the migrations in drizzle/.
 */
export async function openDatabase(options: { url?: string; dataDir?: string }): Promise<OpenDatabase> {
  stripValuesFromQueryErrors();
  const migrationsFolder = path.join(/*turbopackIgnore: true*/ process.cwd(), 'drizzle');
  if (options.url) {
    const { default: postgres } = await import('postgres');
    const { drizzle } = await import('drizzle-orm/postgres-js');
    const client = postgres(options.url, { max: POSTGRES_POOL_MAX, onnotice: () => {}, ...BOUNDED_WAITS });
    const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Database;
    const close = () => client.end({ timeout: 5 });
    // A database down at start: the next getDb() tries again, with no pool left behind.
    await migrateDatabase({ kind: 'postgres', url: options.url, migrationsFolder }).catch(async (error) => {
      await close();
      throw error;
    });
    return { db, close };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const dataDir = options.dataDir ?? (config.dataDir === 'memory://' ? 'memory://' : path.join(config.dataDir, 'pglite'));
  // PGlite serves one process: a folder another process has open is refused (data-dir-lock.ts).
  const unlock = dataDir.startsWith('memory://') ? () => {} : lockDataDir(dataDir);
  try {
    if (!dataDir.startsWith('memory://')) seedDataDir(dataDir);
    // An in-memory database of a test file starts from a migrated dump when one is given: loading
    // it takes a fraction of initdb's seconds, which every integration file used to pay.
    const template = dataDir === 'memory://' ? config.memoryDbTemplate : undefined;
    const client = template ? await PGlite.create({ loadDataDir: new Blob([readFileSync(template)]) }) : await PGlite.create(dataDir);
    const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Database;
    await migrateDatabase({ kind: 'pglite', db, migrationsFolder });
    // After the migrations: their own writes need no notifying (lib/db/change-feed.ts).
    await followChanges(client, db);
    return { db, close: () => client.close().finally(unlock) };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * A first start copies the initialised, migrated template that `npm start` builds
 * (server/pglite-template.mjs) instead of running initdb: ~0.1 s instead of ~4 s.
 */
function seedDataDir(dataDir: string) {
  mkdirSync(dataDir, { recursive: true });
  const template = path.join(/*turbopackIgnore: true*/ process.cwd(), '.next', 'pglite-template');
  if (readdirSync(dataDir).length === 0 && existsSync(path.join(template, 'PG_VERSION'))) {
    cpSync(template, dataDir, { recursive: true });
  }
}

// One database per process (route bundles, instrumentation, and dev-server reloads reuse it).
const database = processSlot<Promise<OpenDatabase>>('db.database');

/** The process's database, opened and migrated on first use. */
export function getDb(): Promise<Database> {
  const opening = database.getOrCreate(() =>
    openDatabase({ url: config.databaseUrl }).catch((error) => {
      database.set(undefined);
      throw error;
    }),
  );
  return opening.then((open) => open.db);
}

/** Closes the process's database (tests and graceful shutdown). */
export async function closeDb(): Promise<void> {
  const open = database.set(undefined);
  if (open) await (await open).close();
}
