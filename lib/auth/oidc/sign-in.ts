import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb, type Transaction } from '@/lib/db/client';
import { oidcLinks, users, type User } from '@/lib/db/schema';
import { isLocale, type Locale } from '@/lib/i18n/locales';
import { consumeInvitationsOf } from '@/lib/registration/invitations';
import { registrationRefusal } from '@/lib/registration/policy';
import { registrationSettings } from '@/lib/registration/settings';
import { insertUser } from '@/lib/users/create';
import { findUserByEmail } from '../accounts';
import { NAME_MAX } from '../form-rules';
import { hashPassword } from '../password';
import type { OidcIdentity } from './client';
import type { OidcProvider } from './providers';

export interface OidcSignIn {
  user: User;
  /** The account has 2FA and the operator did not say this provider enforces MFA. */
  twoFactorRequired: boolean;
}

/**
 * The account a verified identity at `provider` signs in to (issue 35, item 3):
 * 1. the account linked to this provider's subject, whatever the e-mail says today;
 * 2. else the account with the same address, linked now, only when the provider says it verified
 *    the address (otherwise anyone who types someone's address at a lax provider gets in);
 * 3. else a new, already verified account, when the registration setting admits the address.
 */
export async function signInWithOidc(provider: OidcProvider, identity: OidcIdentity, locale: Locale): Promise<OidcSignIn> {
  const db = await getDb();
  const user = await db.transaction(async (tx) => {
    const [link] = await tx
      .select({ userId: oidcLinks.userId })
      .from(oidcLinks)
      .where(and(eq(oidcLinks.provider, provider.id), eq(oidcLinks.subject, identity.subject)));
    if (link) {
      await tx.update(oidcLinks).set({ lastLoginAt: new Date() }).where(and(eq(oidcLinks.provider, provider.id), eq(oidcLinks.subject, identity.subject)));
      const [linked] = await tx.select().from(users).where(eq(users.id, link.userId));
      return linked!;
    }
    if (!identity.email || !identity.emailVerified) throw new ApiError('sso_email_not_verified');
    const account = (await findUserByEmail(tx, identity.email)) ?? (await createAccount(tx, identity, locale));
    await tx.insert(oidcLinks).values({ provider: provider.id, subject: identity.subject, userId: account.id, lastLoginAt: new Date() });
    if (account.state !== 'unverified') return account;
    // The provider has just proved the address, as the activation link would have.
    const [activated] = await tx.update(users).set({ state: 'active', verifiedAt: new Date() }).where(eq(users.id, account.id)).returning();
    return activated!;
  });
  if (user.state === 'expired' || user.state === 'disabled') throw new ApiError('login_failed_expired');
  return { user, twoFactorRequired: user.has2fa && !provider.mfa };
}

/**
 * Just-in-time registration: the same rules as the register form, verified by the provider. An
 * invitation to this address admits it as its link would (used up here); closed admits nobody.
 */
async function createAccount(tx: Transaction, identity: OidcIdentity, locale: Locale): Promise<User> {
  const email = identity.email!;
  const policy = await registrationSettings(tx);
  let refusal = registrationRefusal(policy, email, false);
  if (refusal && policy.mode !== 'closed') refusal = registrationRefusal(policy, email, await consumeInvitationsOf(tx, email));
  if (refusal) throw new ApiError(refusal);
  const { firstName, lastName } = namesOf(identity, email);
  return insertUser(tx, {
    email,
    firstName,
    lastName,
    // No password: the hash of a random one (never shown), so the login form answers as for any
    // wrong password, after the same work. "Forgot your password?" can set a real one.
    passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
    lang: identity.locale && isLocale(identity.locale.toLowerCase()) ? identity.locale.toLowerCase() : locale,
    state: 'active',
    verifiedAt: new Date(),
  });
}

/** The provider's names, else its full name split once, else the address's local part. */
function namesOf(identity: OidcIdentity, email: string): { firstName: string; lastName: string } {
  const clip = (value: string) => value.slice(0, NAME_MAX);
  if (identity.givenName) return { firstName: clip(identity.givenName), lastName: clip(identity.familyName ?? '') };
  const [first, ...rest] = (identity.name ?? email.slice(0, email.indexOf('@'))).split(/\s+/);
  return { firstName: clip(first || email), lastName: clip(rest.join(' ')) };
}
