/**
 * Every port an integration test listens on comes from one base, TEST_PORT_BASE (4900 unless
 * set): each file that starts a server has a block of 100, its second half for the PostgreSQL
 * project, since Jest runs the same file on both databases at once. Two checkouts on one machine
 * run apart with apart bases; the end-to-end tests derive theirs from E2E_PORT
 * (tests/e2e/support/constants.mjs).
 */
const FILES = [
  'sfu-janus',
  'sfu-route',
  'sfu-janus-guards',
  'oidc-sign-in',
  'oidc-sign-in-rules',
  'oidc-claim-sweep',
  'sfu-failover',
  'sfu-kept-session',
] as const;
const BLOCK = 100;

/** The first of the 50 ports that `file` may use in this database project. */
export function portBlock(file: (typeof FILES)[number]): number {
  const base = Number(process.env.TEST_PORT_BASE ?? 4900);
  return base + FILES.indexOf(file) * BLOCK + (process.env.DATABASE_URL ? BLOCK / 2 : 0);
}
