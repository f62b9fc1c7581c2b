import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/api/errors';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { invitations, users, type User } from '@/lib/db/schema';
import { config } from '@/lib/environment';
import { isLocale } from '@/lib/i18n/locales';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { registrationSettings } from './settings';

/** An invitation link lives 14 days and registers once. */
export const INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

const digest = (raw: string) => createHash('sha256').update(raw).digest('hex');
/** Tokens are 43 characters (256 bits, base64url); anything far off is not worth a query. */
const plausible = (token: string) => token.length >= 16 && token.length <= 128;

type Db = Database | Transaction;

/**
 * Sends a registration invitation to `email` in the inviter's language. Admins may always; a user
 * only when the admin allows it. Refused when registration is closed, or the address already has
 * an account.
 */
export async function sendInvitation(inviter: User, email: string, now = new Date()): Promise<void> {
  const settings = await registrationSettings();
  if (inviter.role !== 'admin' && !settings.usersMayInvite) throw new ApiError('invitation_not_allowed', { status: 403 });
  if (settings.mode === 'closed') throw new ApiError('registration_closed');
  await consumeAttempt(limits.registrationInvite, inviter.id);
  const db = await getDb();
  await db.transaction(async (tx) => {
    // As lib/auth/accounts.ts looks addresses up (imported from there, the two would import each other).
    const [existing] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
    if (existing) throw new ApiError('email_exists', { field: 'email' });
    const raw = randomBytes(32).toString('base64url');
    await tx.insert(invitations).values({ email, tokenHash: digest(raw), invitedBy: inviter.id, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) });
    await enqueueMail(tx, {
      to: email,
      locale: isLocale(inviter.lang) ? inviter.lang : 'en',
      template: 'registrationInvitation',
      data: {
        inviterName: `${inviter.firstName} ${inviter.lastName}`.trim(),
        link: `${config.appUrl}/register?invitation=${encodeURIComponent(raw)}`,
      },
    });
  });
  kickMailWorker();
}

/** The address a valid (unused, unexpired) invitation is for, or null. Does not use it up. */
export async function invitedEmail(token: string | undefined, now = new Date(), db?: Db): Promise<string | null> {
  if (!token || !plausible(token)) return null;
  const source = db ?? (await getDb());
  const [row] = await source
    .select({ email: invitations.email })
    .from(invitations)
    .where(and(eq(invitations.tokenHash, digest(token)), isNull(invitations.usedAt), gt(invitations.expiresAt, now)));
  return row?.email ?? null;
}

/**
 * Uses an invitation up for `email` (the invited address, in any letter case) inside the
 * registration's transaction: true once, false for an invalid, used, expired or other-address link.
 */
export async function consumeInvitation(tx: Transaction, token: string | undefined, email: string, now = new Date()): Promise<boolean> {
  if (!token || !plausible(token)) return false;
  const used = await tx
    .update(invitations)
    .set({ usedAt: now })
    .where(
      and(
        eq(invitations.tokenHash, digest(token)),
        isNull(invitations.usedAt),
        gt(invitations.expiresAt, now),
        sql`lower(${invitations.email}) = ${email.toLowerCase()}`,
      ),
    )
    .returning({ id: invitations.id });
  return used.length > 0;
}
