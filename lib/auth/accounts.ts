import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { config } from '@/lib/environment';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { userEmailIs } from '@/lib/db/user-email';
import { users, type User } from '@/lib/db/schema';
import { isLocale, type Locale } from '@/lib/i18n/locales';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { runAfterAnswer } from '@/lib/after-answer';
import { consumeAttempt, limits, resetAttempts } from '@/lib/security/rate-limit';
import { normalizeTimezone, isValidTimezone } from '@/lib/time/timezones';
import { insertUser } from '@/lib/users/create';
import { consumeInvitation } from '@/lib/registration/invitations';
import { registrationRefusal } from '@/lib/registration/policy';
import { registrationSettings } from '@/lib/registration/settings';
import { isCommonPassword } from './common-passwords';
import { deviceIdFor, hasDeviceTokens } from './device-cookie';
import { hashPassword, needsRehash, verifyPassword, DUMMY_HASH } from './password';
import { sessionFor, type SessionData } from './session-cookie';
import { consumeToken, issueToken, peekToken, voidTokens } from './tokens';

type Db = Database | Transaction;

// Every credential call below counts its attempts itself (lib/security/rate-limit.ts): `client`
// is the caller's address as clientIp() reads it, so a handler only passes it on.

/** Tokens of mailed links are 16–128 characters; anything else is not worth a database query. */
const plausibleToken = (token: string) => token.length >= 16 && token.length <= 128;

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(userEmailIs(email));
  return user;
}

/** Refuses a password from the list of the 10,000 most common ones, as not complex enough. */
export function assertUncommonPassword(password: string) {
  if (isCommonPassword(password)) throw new ApiError('low_complexity', { field: 'password' });
}

async function sendActivationMail(db: Db, user: User) {
  const token = await issueToken(db, user.id, 'activation');
  await enqueueMail(db, {
    to: user.email,
    locale: isLocale(user.lang) ? user.lang : 'en',
    template: 'activation',
    data: { firstName: user.firstName, link: `${config.appUrl}/invitation/activate?token=${token}` },
  });
}

interface Registration {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  lang?: Locale;
  timezone?: string;
  /** The token of a registration invitation link (issue 35). */
  invitation?: string;
}

/**
 * SPEC point 4: registration creates an unverified account and mails its activation link.
 * Issue 35: only as the registration setting allows; an invitation is used up in the same
 * transaction, so a refusal leaves neither an account nor a used invitation behind.
 * Issue 48: an invitation link proves the address it was mailed to, as an activation link would:
 * registering through it, for that very address (consumeInvitation() compares them), makes an
 * active account and sends no activation mail. Answers whether the account is active.
 */
export async function registerAccount(input: Registration, locale: Locale, client: string): Promise<{ active: boolean }> {
  await consumeAttempt(limits.register, client);
  // A refusal the request alone shows comes first, before the password's checks and argon2 work
  // (an invitation sent is taken as valid here; the transaction below decides).
  const early = registrationRefusal(await registrationSettings(), input.email, input.invitation !== undefined);
  if (early) throw new ApiError(early);
  assertUncommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const db = await getDb();
  const active = await db.transaction(async (tx) => {
    const policy = await registrationSettings(tx);
    // Closed refuses before anything is looked at; otherwise an invitation, when sent, must hold.
    const invited = policy.mode !== 'closed' && input.invitation !== undefined && (await consumeInvitation(tx, input.invitation, input.email));
    if (input.invitation !== undefined && !invited && policy.mode !== 'closed') throw new ApiError('registration_invitation_required');
    const refusal = registrationRefusal(policy, input.email, invited);
    if (refusal) throw new ApiError(refusal);
    if (await findUserByEmail(tx, input.email)) throw new ApiError('email_exists', { field: 'email' });
    const user = await insertUser(tx, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash,
      lang: input.lang ?? locale,
      timezone: input.timezone && isValidTimezone(input.timezone) ? normalizeTimezone(input.timezone) : null,
      ...(invited ? { state: 'active' as const, verifiedAt: new Date() } : { state: 'unverified' as const }),
    });
    if (!invited) await sendActivationMail(tx, user);
    return invited;
  });
  if (!active) kickMailWorker();
  return { active };
}

/**
 * POST /invitation: sends the activation mail again to an account that still needs it. Answers
 * the same whether or not there is such an account.
 */
export async function resendActivation(email: string, client: string): Promise<void> {
  await consumeAttempt(limits.activation, client);
  await consumeAttempt(limits.reset, `activation:${email}`);
  const db = await getDb();
  const user = await findUserByEmail(db, email);
  if (user?.state !== 'unverified') return;
  await db.transaction((tx) => sendActivationMail(tx, user));
  kickMailWorker();
}

/** Activates the account of an activation link; false for an invalid, used or expired link. */
export async function activateAccount(token: string, client: string): Promise<boolean> {
  await consumeAttempt(limits.activation, client);
  if (!plausibleToken(token)) return false;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, 'activation');
    if (!userId) return false;
    await voidTokens(tx, userId, 'activation');
    await tx
      .update(users)
      .set({ state: sql`case when ${users.state} = 'unverified' then 'active' else ${users.state} end`, verifiedAt: new Date() })
      .where(eq(users.id, userId));
    return true;
  });
}

export type LoginResult = { session: SessionData; twoFactorRequired: boolean; user: User };

/**
 * SPEC point 4, login. Unknown e-mails and wrong passwords answer alike (login_failed), after
 * the same argon2 work. An unverified account gets its activation mail again.
 *
 * Attempts are limited by where they come from (docs/security.md, issue 32 item 4). A browser
 * whose device cookie holds a valid token for this account (`devices`, the cookie's value) has a
 * limit of its own and no other, so guessing from elsewhere cannot lock the person out of it.
 * Any other attempt counts per client, per account and client, and per account; the first
 * attempt the account-wide limit refuses in its window tells the account by mail.
 */
export async function logIn(email: string, password: string, client: string, devices?: string): Promise<LoginResult> {
  const db = await getDb();
  // Only a cookie with tokens needs the account before the limits: the token is checked against its id.
  const known = hasDeviceTokens(devices) ? ((await findUserByEmail(db, email)) ?? null) : undefined;
  const device = known ? deviceIdFor(devices, known.id) : null;
  const accountClient = `${email}|${client}`;
  if (device) {
    await consumeAttempt(limits.loginPerDevice, device);
  } else {
    // Per account and client, so an attacker elsewhere cannot lock a person out; per account and
    // per client more slowly, to cap guessing spread over many addresses or many accounts.
    await consumeAttempt(limits.loginPerIp, client);
    await consumeAttempt(limits.loginPerAccountClient, accountClient);
    await consumeAttempt(limits.loginPerAccount, email, () => runAfterAnswer('failed-logins mail', () => mailFailedLogins(email)));
  }
  const user = known === undefined ? await findUserByEmail(db, email) : (known ?? undefined);
  const valid = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !valid) throw new ApiError('login_failed');
  if (user.state === 'unverified') {
    await sendActivationMail(db, user);
    kickMailWorker();
    throw new ApiError('login_failed_not_verified');
  }
  if (user.state === 'expired' || user.state === 'disabled') throw new ApiError('login_failed_expired');
  if (needsRehash(user.passwordHash)) {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
  }
  if (user.has2fa) return { session: { ...sessionFor(user), pending2fa: true }, twoFactorRequired: true, user };
  // A device's count needs no reset: the completed login gives the browser a fresh token.
  if (!device) await resetAttempts(limits.loginPerAccountClient, accountClient);
  return { session: sessionFor(user), twoFactorRequired: false, user };
}

/**
 * Logins to this address from unknown browsers have just been paused for the rest of the
 * window: tell the account, in its language, that it still logs in from a browser it has used
 * before, and what to do if this is not the person. Runs after the answer, which is the same
 * 429 whether or not the address is an account; nothing is sent for one that is not (or that
 * is not yet verified or is disabled).
 */
async function mailFailedLogins(email: string): Promise<void> {
  const db = await getDb();
  const user = await findUserByEmail(db, email);
  if (!user || user.state === 'unverified' || user.state === 'disabled') return;
  await enqueueMail(db, {
    to: user.email,
    locale: isLocale(user.lang) ? user.lang : 'en',
    template: 'failedLogins',
    data: { firstName: user.firstName, count: limits.loginPerAccount.points, twoFactor: user.has2fa },
  });
  kickMailWorker();
}

/**
 * Forgot password: mails a reset link when the account exists. Answers the same either way, so
 * the form tells nobody which e-mails are registered.
 */
export async function requestPasswordReset(email: string, client: string): Promise<void> {
  await consumeAttempt(limits.resetPerIp, client);
  await consumeAttempt(limits.reset, email);
  // The lookup and the mail happen after the answer, so no timing tells known from unknown.
  runAfterAnswer('password reset', () => mailResetLink(email));
}

async function mailResetLink(email: string): Promise<void> {
  const db = await getDb();
  const user = await findUserByEmail(db, email);
  if (!user || user.state === 'disabled') return;
  await db.transaction(async (tx) => {
    const token = await issueToken(tx, user.id, 'reset');
    await enqueueMail(tx, {
      to: user.email,
      locale: isLocale(user.lang) ? user.lang : 'en',
      template: 'passwordReset',
      data: { firstName: user.firstName, link: `${config.appUrl}/resetpassword/${token}` },
    });
  });
  kickMailWorker();
}

/** GET /api/password/{link}: is this reset link still valid? */
export async function checkResetLink(link: string, client: string): Promise<boolean> {
  await consumeAttempt(limits.resetPerIp, client);
  return plausibleToken(link) && (await peekToken(await getDb(), link, 'reset')) !== null;
}

/**
 * Sets a new password from a reset link (single use, 1 hour). Every existing session ends;
 * two-factor authentication stays on and is asked at the next login.
 */
export async function resetPassword(link: string, password: string, client: string): Promise<void> {
  await consumeAttempt(limits.resetPerIp, client);
  assertUncommonPassword(password);
  const passwordHash = await hashPassword(password);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const userId = await consumeToken(tx, link, 'reset');
    if (!userId) throw new ApiError('invalid_reset_link');
    await tx
      .update(users)
      .set({
        passwordHash,
        sessionVersion: sql`${users.sessionVersion} + 1`,
        // Following a mailed link proves the address, so an unverified account is now verified.
        state: sql`case when ${users.state} = 'unverified' then 'active' else ${users.state} end`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
  });
}

/**
 * POST /vip: mails a meeting-card holder a one-time login link (15 minutes). The code travels in
 * the link's fragment (#card=…), so it never reaches a server log. Same answer for any address.
 */
export async function sendCardLoginLink(email: string, client: string): Promise<void> {
  await consumeAttempt(limits.resetPerIp, client);
  await consumeAttempt(limits.reset, `card:${email}`);
  const db = await getDb();
  const user = await findUserByEmail(db, email);
  if (!user || !user.enableMCard || user.state !== 'active') {
    await verifyPassword(DUMMY_HASH, email);
    return;
  }
  await db.transaction(async (tx) => {
    const code = await issueToken(tx, user.id, 'card_login');
    await enqueueMail(tx, {
      to: user.email,
      locale: isLocale(user.lang) ? user.lang : 'en',
      template: 'cardLogin',
      data: { firstName: user.firstName, link: `${config.appUrl}/login#card=${code}` },
    });
  });
  kickMailWorker();
}

/** POST /vip/activate: logs a meeting-card holder in with the code of their link. */
export async function logInWithCard(code: string, client: string): Promise<LoginResult> {
  await consumeAttempt(limits.loginPerIp, client);
  const db = await getDb();
  const userId = await consumeToken(db, code, 'card_login');
  const [user] = userId ? await db.select().from(users).where(eq(users.id, userId)) : [];
  if (!user || !user.enableMCard) throw new ApiError('invite_not_found');
  if (user.state === 'expired' || user.state === 'disabled') throw new ApiError('login_failed_expired');
  if (user.has2fa) return { session: { ...sessionFor(user), pending2fa: true }, twoFactorRequired: true, user };
  return { session: sessionFor(user), twoFactorRequired: false, user };
}
