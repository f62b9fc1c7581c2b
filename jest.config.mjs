import nextJest from 'next/jest.js';
import { DATABASE_FREE } from './tests/support/database-free.mjs';

const createJestConfig = nextJest({ dir: './' });

// ESM-only packages that Jest must compile to CommonJS like our own code.
const esmPackages = [
  'next-intl',
  'use-intl',
  'iron-session',
  'iron-webcrypto',
  'uncrypto',
  'cookie',
  'uint8array-extras',
  '@scure',
  '@noble',
  'icu-minify',
  '@formatjs',
  'intl-messageformat',
  'openid-client',
  'oauth4webapi',
  'jose',
];

const shared = {
  moduleNameMapper: {
    '^server-only$': '<rootDir>/tests/support/empty-module.js',
    '^@/(.*)$': '<rootDir>/$1',
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
};

/** next/jest sets the SWC transform per config, so each project goes through it. */
async function project(config) {
  const resolved = await createJestConfig({ ...shared, ...config })();
  // next/jest puts its own node_modules pattern first; ours must be the only one.
  resolved.transformIgnorePatterns = shared.transformIgnorePatterns;
  return resolved;
}

const integration = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/tests/integration/**/*.test.ts'],
  slowTestThreshold: 15,
};

const projects = [
  await project({
    displayName: 'unit',
    testEnvironment: 'node',
    testMatch: ['<rootDir>/tests/unit/**/*.test.{ts,tsx}'],
    setupFilesAfterEnv: ['<rootDir>/tests/support/unit-setup.ts'],
  }),
  // Route handlers against an embedded PGlite per test file.
  await project({
    ...integration,
    displayName: 'integration',
    setupFiles: ['<rootDir>/tests/support/env-pglite.ts'],
    globalSetup: '<rootDir>/tests/support/pglite-memory-template.mjs',
    // *.postgres.test.ts need a database server (several processes share it): PostgreSQL only.
    testPathIgnorePatterns: ['/node_modules/', '\\.postgres\\.test\\.ts$'],
  }),
];

// The same integration tests against a real PostgreSQL, when one is given.
if (process.env.TEST_DATABASE_URL) {
  projects.push(
    await project({
      ...integration,
      displayName: 'integration-postgres',
      setupFiles: ['<rootDir>/tests/support/env-postgres.ts'],
      globalSetup: '<rootDir>/tests/support/reset-postgres.mjs',
      // *.pglite.test.ts are about the embedded database alone (and may truncate its tables).
      testPathIgnorePatterns: ['/node_modules/', '\\.pglite\\.test\\.ts$', ...DATABASE_FREE.map((name) => `/tests/integration/${name}\\.test\\.ts$`)],
    }),
  );
}

// Jest reads testTimeout from the root only (a project's own is ignored). The first test or hook
// of an integration file also opens and migrates its PGlite: seconds on a busy machine.
const config = { projects, testTimeout: 30_000 };
export default config;
