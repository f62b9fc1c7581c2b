import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/api/errors';
import { config } from '@/lib/config';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { users, type User } from '@/lib/db/schema';
import { isLocale, type Locale } from '@/lib/i18n/locales';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { normalizeTimezone, isValidTimezone } from '@/lib/time/timezones';
import { insertUser } from '@/lib/users/create';
import { isCommonPassword } from './common-passwords';
import { hashPassword, needsRehash, verifyPassword, DUMMY_HASH } from './password';
import type { SessionData } from './session-cookie';
import { consumeToken, issueToken, voidTokens } from './tokens';

type Db = Database | Transaction;

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
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
}

/** SPEC point 4: registration creates an unverified account and mails its activation link. */
export async function registerAccount(input: Registration, locale: Locale): Promise<void> {
  assertUncommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const db = await getDb();
  await db.transaction(async (tx) => {
    if (await findUserByEmail(tx, input.email)) throw new ApiError('email_exists', { field: 'email' });
    const user = await insertUser(tx, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash,
      lang: input.lang ?? locale,
      timezone: input.timezone && isValidTimezone(input.timezone) ? normalizeTimezone(input.timezone) : null,
      state: 'unverified',
    });
    await sendActivationMail(tx, user);
  });
  kickMailWorker();
}

/**
 * POST /invitation: sends the activation mail again to an account that still needs it. Answers
 * the same whether or not there is such an account.
 */
export async function resendActivation(email: string): Promise<void> {
  const db = await getDb();
  const user = await findUserByEmail(db, email);
  if (user?.state !== 'unverified') return;
  await db.transaction((tx) => sendActivationMail(tx, user));
  kickMailWorker();
}

/** Activates the account of an activation link; false for an invalid, used or expired link. */
export async function activateAccount(token: string): Promise<boolean> {
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
 */
export async function logIn(email: string, password: string): Promise<LoginResult> {
  const db = await getDb();
  const user = await findUserByEmail(db, email);
  const valid = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password);
  if (!user || !valid) throw new ApiError('login_failed');
  if (user.state === 'unverified') {
    await sendActivationMail(db, user);
    kickMailWorker();
    throw new ApiError('login_failed_not_verified');
  }
  if (user.state === 'expired' || user.state === 'disabled') throw new ApiError('login_failed_expired');
  if (needsRehash(user.passwordHash)) {
    await db.update(users).set({ passwordHash: await hashPassword(password) }).where(eq(users.id, user.id));
  }
  const session: SessionData = { userId: user.id, version: user.sessionVersion, role: user.role };
  if (user.has2fa) return { session: { ...session, pending2fa: true }, twoFactorRequired: true, user };
  return { session, twoFactorRequired: false, user };
}

/**
 * Forgot password: mails a reset link when the account exists. Answers the same either way, so
 * the form tells nobody which e-mails are registered.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  const db = await getDb();
  const user = await findUserByEmail(db, email);
  // The caller runs this after its answer (POST /api/password), so no timing tells known from unknown.
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

/**
 * Sets a new password from a reset link (single use, 1 hour). Every existing session ends;
 * two-factor authentication stays on and is asked at the next login.
 */
export async function resetPassword(link: string, password: string): Promise<void> {
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
export async function sendCardLoginLink(email: string): Promise<void> {
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
export async function logInWithCard(code: string): Promise<LoginResult> {
  const db = await getDb();
  const userId = await consumeToken(db, code, 'card_login');
  const [user] = userId ? await db.select().from(users).where(eq(users.id, userId)) : [];
  if (!user || !user.enableMCard) throw new ApiError('invite_not_found');
  if (user.state === 'expired' || user.state === 'disabled') throw new ApiError('login_failed_expired');
  const session: SessionData = { userId: user.id, version: user.sessionVersion, role: user.role };
  if (user.has2fa) return { session: { ...session, pending2fa: true }, twoFactorRequired: true, user };
  return { session, twoFactorRequired: false, user };
}
