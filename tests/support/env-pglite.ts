// Integration tests on an in-memory PGlite: one per test file (Jest's module registry), migrated.
process.env.DATA_DIR = 'memory://';
delete process.env.DATABASE_URL;
process.env.APP_URL = 'http://localhost:3000';
