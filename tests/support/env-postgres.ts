// Integration tests on the real PostgreSQL of TEST_DATABASE_URL: a database per Jest worker,
// emptied once per run (tests/support/reset-postgres.mjs).
import { workerDatabaseUrl } from './reset-postgres.mjs';

process.env.DATABASE_URL = workerDatabaseUrl(process.env.TEST_DATABASE_URL!, process.env.JEST_WORKER_ID ?? '1');
process.env.DATA_DIR = 'memory://';
process.env.APP_URL = 'http://localhost:3000';
