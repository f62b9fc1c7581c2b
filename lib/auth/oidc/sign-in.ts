import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb, type Transaction } from '@/lib/db/client';
import { oidcLinks, tokens, users, type User } from '@/lib/db/schema';
import { isLocale, type Locale } from '@/lib/i18n/locales';
import { consumeInvitationsOf } from '@/lib/registration/invitations';
import { registrationRefusal } from '@/lib/registration/policy';
import { registrationSettings } from '@/lib/registration/settings';
import { insertUser } from '@/lib/users/create';
import { findUserByEmail } from '../accounts';
import { NAME_MAX } from '../form-rules';
import { unusablePasswordHash } from '../password';
import { usableEmail, type OidcIdentity } from './claims';
import type { OidcProvider } from './providers';
import { dropRecoveryCodes } from '@/lib/auth/recovery-codes';

export interface OidcSignIn {
  user: User;
  /** The account has 2FA and the operator did not say this provider enforces MFA. */
  twoFactorRequired: boolean;
}

/**
 * The account a verified identity at `provider` signs in to (issue 35, item 3):
 * 1. the account linked to this provider's subject, whatever the e-mail says today;
 * 2. else the account with the same address, linked now, only when the provider says it verified
 *    the address (otherwise anyone who types someone's address at a lax provider gets in); one
 *    never activated is the address owner's only now, and keeps nothing its registrant set;
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
      await tx
        .update(oidcLinks)
        .set({ lastLoginAt: new Date() })
        .where(and(eq(oidcLinks.provider, provider.id), eq(oidcLinks.subject, identity.subject)));
      const [linked] = await tx.select().from(users).where(eq(users.id, link.userId));
      return linked!;
    }
    const email = usableEmail(identity);
    const account = (await findUserByEmail(tx, email)) ?? (await createAccount(tx, identity, email, locale));
    await tx.insert(oidcLinks).values({ provider: provider.id, subject: identity.subject, userId: account.id, lastLoginAt: new Date() });
    // Unproven: never activated, or enabled by an admin without its address ever being proven.
    return account.verifiedAt === null || account.state === 'unverified' ? claimForOwner(tx, account, identity, email, locale) : account;
  });
  if (user.state === 'expired' || user.state === 'disabled') throw new ApiError('login_failed_expired');
  return { user, twoFactorRequired: user.has2fa && !provider.mfa };
}

/**
 * Just-in-time registration: the same rules as the register form, verified by the provider. An
 * invitation to this address admits it as its link would (used up here); closed admits nobody.
 */
async function createAccount(tx: Transaction, identity: OidcIdentity, email: string, locale: Locale): Promise<User> {
  const policy = await registrationSettings(tx);
  let refusal = registrationRefusal(policy, email, false);
  if (refusal && policy.mode !== 'closed') refusal = registrationRefusal(policy, email, await consumeInvitationsOf(tx, email));
  if (refusal) throw new ApiError(refusal);
  return insertUser(tx, {
    email,
    ...namesOf(identity, email),
    // No password: "Forgot your password?" can set a real one.
    passwordHash: await unusablePasswordHash(),
    lang: langOf(identity, locale),
    state: 'active',
    verifiedAt: new Date(),
  });
}

/**
 * Issue 44, point 1: an account never activated (or enabled by an admin, who vouched for the
 * account but could not prove the address) was made by whoever typed this address into the
 * register form, perhaps not its owner (an attacker who then waits for the owner to sign in here).
 * The provider has just proved the address, as the activation link would have; nothing the
 * registrant set without that proof survives: the password becomes unusable as for an account made
 * just in time, the names and language are the provider's, pending links (activation, reset, card)
 * go, and so does any two-factor secret. Every session ends: a cookie issued before activation (a
 * meeting-card link logs in whatever the state) is refused while unverified, and would count now.
 */
async function claimForOwner(tx: Transaction, account: User, identity: OidcIdentity, email: string, locale: Locale): Promise<User> {
  const now = new Date();
  await tx
    .update(tokens)
    .set({ usedAt: now })
    .where(and(eq(tokens.userId, account.id), isNull(tokens.usedAt)));
  await dropRecoveryCodes(tx, account.id);
  const [activated] = await tx
    .update(users)
    .set({
      // An admin's disabling holds; only an account waiting for its activation becomes active.
      state: account.state === 'unverified' ? 'active' : account.state,
      verifiedAt: now,
      passwordHash: await unusablePasswordHash(),
      ...namesOf(identity, email),
      lang: langOf(identity, locale),
      timezone: null,
      has2fa: false,
      totpSecret: null,
      totpLastStep: null,
      sessionVersion: sql`${users.sessionVersion} + 1`,
      updatedAt: now,
    })
    .where(eq(users.id, account.id))
    .returning();
  return activated!;
}

/** The provider's locale when it is one of ours, else the request's. */
function langOf(identity: OidcIdentity, locale: Locale): Locale {
  const asked = identity.locale?.toLowerCase();
  return asked && isLocale(asked) ? asked : locale;
}

/** The provider's names, else its full name split once, else the address's local part. */
function namesOf(identity: OidcIdentity, email: string): { firstName: string; lastName: string } {
  // Cut at a character, never inside a surrogate pair (half of one cannot be stored).
  const clip = (value: string) => {
    const cut = value.slice(0, NAME_MAX);
    return (cut.isWellFormed() ? cut : cut.slice(0, -1)).trim();
  };
  if (identity.givenName) return { firstName: clip(identity.givenName), lastName: clip(identity.familyName ?? '') };
  const [first, ...rest] = (identity.name ?? email.slice(0, email.indexOf('@'))).split(/\s+/);
  return { firstName: clip(first || email), lastName: clip(rest.join(' ')) };
}
