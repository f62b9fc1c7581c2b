// A logged-in visitor for the page bench: an account seeded into the server's data folder before
// it starts (scripts/seed.ts, as tests/e2e/support/serve.mjs does) and a session cookie sealed
// with the server's SESSION_SECRET (as tests/e2e/support/session.ts does), so the app's pages
// can be fetched as their user sees them without going through the login form.
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { sealData } from 'iron-session';

/** A secret for the bench's server alone: it only has to be long enough. */
export const benchSessionSecret = () => randomBytes(32).toString('hex');

/**
 * Seeds the demo account (an admin on the executive plan with one room, time zone set, so no
 * first-time dialog opens) into an embedded database in dataDir. PGlite allows one process at a
 * time: call it before the server starts. Answers {userId, email, sessionVersion, meetingId}.
 */
export function seedAccount(root, env) {
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const seeded = spawnSync(tsx, ['--conditions=react-server', 'scripts/seed.ts'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (seeded.status !== 0) throw new Error(`seeding failed:\n${seeded.stdout}${seeded.stderr}`);
  return JSON.parse(seeded.stdout.trim().split('\n').pop());
}

/** The Cookie header of a session of that account (lib/auth/session-cookie.ts's shape). */
export async function sessionCookie(account, secret) {
  const value = await sealData(
    { userId: account.userId, version: account.sessionVersion, role: 'admin', sid: randomUUID() },
    { password: secret, ttl: 24 * 3600 },
  );
  return `enclave_session=${value}`;
}
