import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { adminActor, OPERATOR, writeAudit } from '@/lib/audit/audit-log';
import { ApiError } from '@/lib/errors';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { userEmailIs } from '@/lib/db/user-email';
import { invitations, users, type User } from '@/lib/db/schema';
import { config } from '@/lib/environment';
import { isLocale, type Locale } from '@/lib/i18n/locales';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { registrationSettings } from './settings';

/** An invitation link lives 14 days and registers once. */
export const INVITATION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

const digest = (raw: string) => createHash('sha256').update(raw).digest('hex');
/** Tokens are 43 characters (256 bits, base64url); anything far off is not worth a query. */
const plausible = (token: string) => token.length >= 16 && token.length <= 128;

type Db = Database | Transaction;

/** Who sends an invitation: an account, or the operator's CLI (`npm run admin -- invite`). */
export type Inviter = { user: User } | { operator: true; locale: Locale };

/**
 * Sends a registration invitation to `email`, in the inviter's language, and records it in the
 * audit log (who invited which address). Admins and the operator may always; a user only when the
 * admin allows it. Refused when registration is closed, or the address already has an account.
 * Answers the link, which the CLI prints (the API does not return it).
 */
export async function sendInvitation(inviter: Inviter, email: string, now = new Date()): Promise<{ link: string; expiresAt: Date }> {
  const settings = await registrationSettings();
  const user = 'user' in inviter ? inviter.user : null;
  if (user && user.role !== 'admin' && !settings.usersMayInvite) throw new ApiError('invitation_not_allowed', { status: 403 });
  if (settings.mode === 'closed') throw new ApiError('registration_closed');
  if (user) await consumeAttempt(limits.registrationInvite, user.id);
  const raw = randomBytes(32).toString('base64url');
  const link = `${config.appUrl}/register?invitation=${encodeURIComponent(raw)}`;
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(userEmailIs(email));
    if (existing) throw new ApiError('email_exists', { field: 'email' });
    await tx.insert(invitations).values({ email, tokenHash: digest(raw), invitedBy: user?.id ?? null, expiresAt });
    await writeAudit(tx, user ? adminActor(user) : OPERATOR, 'send_invitation', { label: email }, { expiresAt: expiresAt.toISOString() });
    await enqueueMail(tx, {
      to: email,
      locale: user ? (isLocale(user.lang) ? user.lang : 'en') : 'locale' in inviter ? inviter.locale : 'en',
      template: 'registrationInvitation',
      // No name for the operator: the mail then says the server's administrators invite.
      data: { inviterName: user ? `${user.firstName} ${user.lastName}`.trim() : '', link },
    });
  });
  kickMailWorker();
  return { link, expiresAt };
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

/**
 * Uses up the valid invitations of `email` when a provider has verified that the person holds it
 * (single sign-on, issue 35 item 3): the address is what an invitation admits, and the provider's
 * proof stands in for the link. True when there was one.
 */
export async function consumeInvitationsOf(tx: Transaction, email: string, now = new Date()): Promise<boolean> {
  const used = await tx
    .update(invitations)
    .set({ usedAt: now })
    .where(and(isNull(invitations.usedAt), gt(invitations.expiresAt, now), sql`lower(${invitations.email}) = ${email.toLowerCase()}`))
    .returning({ id: invitations.id });
  return used.length > 0;
}
