/**
 * Integration files that never open the database (they test Janus and coturn): the second
 * run on PostgreSQL (jest.config.mjs, integration-postgres) would repeat them unchanged, so it
 * leaves them out (issue 45, point 8). tests/unit/jest-projects.test.ts checks that none of them
 * reaches a database module.
 */
export const DATABASE_FREE = ['sfu-failover', 'sfu-janus', 'sfu-janus-guards', 'sfu-kept-session', 'turn-denied-peers'];
