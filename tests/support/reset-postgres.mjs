import postgres from 'postgres';

/** The database of one Jest worker: TEST_DATABASE_URL's, suffixed with the worker's number. */
export function workerDatabaseUrl(shared, workerId) {
  const url = new URL(shared);
  url.pathname = `${url.pathname}_w${workerId}`;
  return url.toString();
}

// Starts each run from empty databases, one per Jest worker (tests/support/env-postgres.ts): files
// running at once never see each other's rows (the sweeps compare whole-table counts), and no run
// sees an older run's tables.
export default async function resetPostgres(globalConfig) {
  const shared = process.env.TEST_DATABASE_URL;
  const sql = postgres(shared, { max: 1, onnotice: () => {} });
  try {
    for (let worker = 1; worker <= Math.max(1, globalConfig.maxWorkers); worker += 1) {
      const name = new URL(workerDatabaseUrl(shared, worker)).pathname.slice(1);
      await sql.unsafe(`drop database if exists "${name}" with (force)`);
      await sql.unsafe(`create database "${name}"`);
    }
  } finally {
    await sql.end();
  }
}
