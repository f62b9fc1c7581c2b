// Integration tests on the real PostgreSQL of TEST_DATABASE_URL (reset once per run).
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
process.env.DATA_DIR = 'memory://';
process.env.APP_URL = 'http://localhost:3000';
