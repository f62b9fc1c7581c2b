import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { config } from '@/lib/environment';
import { getDb } from '@/lib/db/client';
import { users, type User } from '@/lib/db/schema';
import { writeAudit } from '@/lib/audit/audit-log';
import { log } from '@/lib/log';

/**
 * The first admin without a shell or a stop (issue 48, point 5): while the server has no admin,
 * it writes a one-time setup link to its log at start (and a fresh one when the last expired).
 * The person who opens it while logged in becomes the admin. The token lives in this process
 * only, as a SHA-256: with the embedded database there is one process; with PostgreSQL each
 * instance has its own link, and `npm run admin -- grant-admin` works without a stop anyway.
 * It is good once, for SETUP_LINK_HOURS, and only while there are no admins at all.
 */
export const SETUP_LINK_HOURS = 24;
export const SETUP_PATH = '/first-admin';

interface PendingSetup {
  hash: Buffer;
  expiresAt: number;
}

const HOLDER = Symbol.for('enclave.first-admin.setup');
const holder = globalThis as { [HOLDER]?: PendingSetup | null };
const sha256 = (token: string) => createHash('sha256').update(token).digest();

export async function adminCount(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, 'admin'));
  return row?.n ?? 0;
}

/**
 * While there is no admin: a fresh setup link (the previous one stops working), else null. The
 * token travels in the fragment, so no proxy or access log on the way records it.
 */
export async function issueSetupLink(now = Date.now()): Promise<string | null> {
  if ((await adminCount()) > 0) {
    holder[HOLDER] = null;
    return null;
  }
  const token = randomBytes(32).toString('base64url');
  holder[HOLDER] = { hash: sha256(token), expiresAt: now + SETUP_LINK_HOURS * 3_600_000 };
  return `${config.appUrl}${SETUP_PATH}#${token}`;
}

/**
 * At start, and then hourly: while there is no admin and no live link, a new link, logged for the
 * operator. Answers the timer's stop.
 */
export function announceSetupLinks(): () => void {
  const announce = async () => {
    const pending = holder[HOLDER];
    if (pending && pending.expiresAt > Date.now()) return;
    const link = await issueSetupLink();
    if (link) {
      log.warn(
        `No admin yet. Log in (or register) with the account that shall administer this server, then open this link within ${SETUP_LINK_HOURS} hours; it works once: ${link}`,
        { setupLink: link },
      );
    }
  };
  const run = () => void announce().catch((error: unknown) => log.warn('first-admin setup link not issued', { error: String(error) }));
  run();
  const timer = setInterval(run, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The logged-in `user` opened the setup link: they become the admin, if the token is the live one
 * and there is still no admin. The token is spent first (a second opening fails even mid-way); the
 * change ends the account's sessions (the cookie carries the role): the caller gives a new one.
 * Written to the audit log as "grant_admin" by the person themself, "via setup link".
 */
export async function claimFirstAdmin(user: User, token: string): Promise<User> {
  const pending = holder[HOLDER];
  const given = sha256(token);
  if (!pending || pending.expiresAt <= Date.now() || !timingSafeEqual(pending.hash, given)) {
    throw new ApiError('incorrect_data', { field: 'token' });
  }
  holder[HOLDER] = null;
  const db = await getDb();
  const updated = await db.transaction(async (tx) => {
    // Serialises two claims on PostgreSQL (PGlite has one connection): the count then holds.
    await tx.execute(sql`select pg_advisory_xact_lock(4801)`);
    const [admins] = await tx.select({ n: count() }).from(users).where(eq(users.role, 'admin'));
    if ((admins?.n ?? 0) > 0) return null;
    const [row] = await tx
      .update(users)
      .set({
        role: 'admin',
        sessionVersion: sql`${users.sessionVersion} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id))
      .returning();
    await writeAudit(
      tx,
      { id: user.id, label: user.email },
      'grant_admin',
      { userId: user.id, label: user.email },
      { from: user.role, to: 'admin', via: 'setup_link' },
    );
    return row ?? null;
  });
  if (!updated) throw new ApiError('incorrect_data', { field: 'token' });
  log.info('first admin set through the setup link', { userId: user.id });
  return updated;
}

/** For tests: forget the live link. */
export function forgetSetupLink(): void {
  holder[HOLDER] = null;
}
