import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { ApiError } from '@/lib/errors';
import { config } from '@/lib/environment';
import { getPublicConfiguration } from '@/lib/configuration/configuration';
import { runAfterAnswer } from '@/lib/after-answer';
import { getDb } from '@/lib/db/client';
import { users, type User } from '@/lib/db/schema';
import { isLocale } from '@/lib/i18n/locales';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { isSealedWithCurrentKey, openSecret, sealSecret } from '@/lib/security/data-key';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { verifyPassword } from './password';
import { dropRecoveryCodes, replaceRecoveryCodes, spendRecoveryCode } from './recovery-codes';

// TOTP (RFC 6238): 30-second steps, six digits, one step of clock drift either way.
const PERIOD_SECONDS = 30;
const DRIFT_SECONDS = PERIOD_SECONDS;

/**
 * SPEC point 4: 2FA is offered only while configuration's enable2fa is on (issue 18: the admin
 * area turns it off). Accounts that already use it keep it: their logins still ask for the code,
 * and they may still turn it off.
 */
async function assertTwoFactorOffered(): Promise<void> {
  const { enable2fa } = await getPublicConfiguration();
  if (!enable2fa) throw new ApiError('incorrect_data');
}

/**
 * How long a secret being set up (not yet confirmed by a code) is handed out again. Within it,
 * asking for the QR code again answers the same secret, so the code already scanned keeps
 * working (issue 32, item 5: a second GET replaced it mid-set-up); after it, a fresh one.
 */
export const PENDING_SETUP_SECONDS = 60 * 60;

const currentStep = () => Math.floor(Date.now() / 1000 / PERIOD_SECONDS);

/**
 * The pending secret, if one was made less than PENDING_SETUP_SECONDS ago. While 2FA is off,
 * totp_last_step holds the time step at which the pending secret was made (no code has been
 * accepted for it yet); finishing sets it to the accepted step, as for a login.
 */
function pendingSecret(user: Pick<User, 'id' | 'has2fa' | 'totpSecret' | 'totpLastStep'>): string | null {
  if (user.has2fa || !user.totpSecret || user.totpLastStep === null) return null;
  if (currentStep() - user.totpLastStep >= PENDING_SETUP_SECONDS / PERIOD_SECONDS) return null;
  try {
    return openSecret(user.totpSecret, user.id);
  } catch {
    return null; // sealed with a retired key: make a new one
  }
}

/**
 * Step 1 of enabling 2FA: the secret being set up, and its QR code. The same secret is answered
 * until it is confirmed or PENDING_SETUP_SECONDS pass; then a fresh one from the CSPRNG.
 */
export async function beginSetup(user: User): Promise<{ secret: string; png: Buffer }> {
  if (user.has2fa) throw new ApiError('incorrect_data');
  await assertTwoFactorOffered();
  let secret = pendingSecret(user);
  if (!secret) {
    const db = await getDb();
    const fresh = generateSecret();
    // Only over what this call saw: of two calls at once, the second answers the first's secret.
    const stored = user.totpSecret === null ? isNull(users.totpSecret) : eq(users.totpSecret, user.totpSecret);
    const [updated] = await db
      .update(users)
      .set({ totpSecret: sealSecret(fresh, user.id), totpLastStep: currentStep() })
      .where(and(eq(users.id, user.id), eq(users.has2fa, false), stored))
      .returning({ id: users.id });
    if (updated) secret = fresh;
    else {
      const [now] = await db.select().from(users).where(eq(users.id, user.id)).limit(1);
      secret = now ? pendingSecret(now) : null;
      if (!secret) throw new ApiError('incorrect_data');
    }
  }
  const uri = generateURI({ issuer: config.brandName, label: user.email, secret });
  return { secret, png: await QRCode.toBuffer(uri, { type: 'png', margin: 2, width: 240 }) };
}

/**
 * The user's TOTP secret in clear. It is stored sealed (lib/security/data-key.ts), bound to the
 * user; one stored before sealing began is sealed now, so it leaves the database's clear text.
 */
function totpSecretOf(user: User): string {
  const stored = user.totpSecret!;
  const secret = openSecret(stored, user.id);
  if (!isSealedWithCurrentKey(stored)) {
    runAfterAnswer('sealing a TOTP secret again', async () => {
      const db = await getDb();
      await db
        .update(users)
        .set({ totpSecret: sealSecret(secret, user.id) })
        .where(and(eq(users.id, user.id), eq(users.totpSecret, stored)));
    });
  }
  return secret;
}

/** The time step a code belongs to, or null when it is wrong or already used. */
async function acceptedStep(secret: string, code: string, lastStep: number | null): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: DRIFT_SECONDS,
    ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
  });
  if (!result.valid) return null;
  return 'timeStep' in result && typeof result.timeStep === 'number' ? result.timeStep : Math.floor(Date.now() / 1000 / PERIOD_SECONDS) + result.delta;
}

/** How a second factor was proven: the app's code, or a recovery code (`left` of them remain). */
export type FactorUse = { via: 'app' } | { via: 'recovery'; left: number };

/**
 * A current code of the authenticator app, accepted once only (the last accepted step is stored).
 */
export async function verifyAppCode(user: User, code: string): Promise<boolean> {
  if (!user.has2fa || !user.totpSecret || !/^\d{6}$/.test(code)) return false;
  const step = await acceptedStep(totpSecretOf(user), code, user.totpLastStep);
  if (step === null) return false;
  const db = await getDb();
  // The condition makes two simultaneous uses of one code count once.
  const updated = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, user.id), sql`coalesce(${users.totpLastStep}, -1) < ${step}`))
    .returning({ id: users.id });
  return updated.length === 1;
}

/**
 * Checks a login's second factor: a code of the app, or one of the recovery codes, which then
 * stops working (issue 48, point 6: the caller tells the person how many are left). Null: neither.
 */
export async function verifyLoginCode(user: User, code: string): Promise<FactorUse | null> {
  if (!user.has2fa || !user.totpSecret) return null;
  if (await verifyAppCode(user, code)) return { via: 'app' };
  const used = await spendRecoveryCode(user.id, code);
  return used ? { via: 'recovery', left: used.left } : null;
}

/** Step 2 of the account modal: is this code right for the secret being set up? */
export async function checkSetupCode(user: User, code: string): Promise<boolean> {
  await consumeAttempt(limits.twoFactor, user.id);
  if (user.has2fa || !user.totpSecret) return false;
  await assertTwoFactorOffered();
  return (await acceptedStep(totpSecretOf(user), code, null)) !== null;
}

/**
 * Step 3: turns 2FA on and answers the recovery codes (issue 48, point 6: several, each good
 * once), shown once and stored hashed. Every session ends (enabling requires logging in again,
 * SPEC point 4).
 */
export async function finishSetup(user: User, code: string): Promise<string[]> {
  await consumeAttempt(limits.twoFactor, user.id);
  if (user.has2fa || !user.totpSecret) throw new ApiError('incorrect_data');
  await assertTwoFactorOffered();
  const step = await acceptedStep(totpSecretOf(user), code, null);
  if (step === null) throw new ApiError('incorrect_data', { field: 'code' });
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ has2fa: true, totpLastStep: step, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, user.id));
    return replaceRecoveryCodes(tx, user.id);
  });
}

/** What turning 2FA off asks for (issue 16, item 4): the factor itself, and the password. */
export interface CancelProof {
  /** A current code of the authenticator app, or a recovery code. */
  code: string;
  /** The account password; meeting-card accounts have none to give (SPEC point 6). */
  password?: string;
}

/**
 * Turns 2FA off, once the person proves they hold the password and the factor: a session alone
 * (a borrowed laptop, a stolen cookie) must not be enough. Older session cookies stop working,
 * the caller gets a fresh one, and the account's address hears about it.
 */
export async function cancelTwoFactor(user: User, proof: CancelProof): Promise<number> {
  await consumeAttempt(limits.twoFactor, user.id);
  if (!user.has2fa) throw new ApiError('incorrect_data');
  if (!user.enableMCard) {
    if (!proof.password) throw new ApiError('fill_old_password', { field: 'password' });
    if (!(await verifyPassword(user.passwordHash, proof.password))) throw new ApiError('invalid_old_password', { field: 'password' });
  }
  if (!(await verifyLoginCode(user, proof.code))) throw new ApiError('incorrect_data', { field: 'code' });
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({
        has2fa: false,
        totpSecret: null,
        totpLastStep: null,
        sessionVersion: sql`${users.sessionVersion} + 1`,
      })
      .where(eq(users.id, user.id))
      .returning({ version: users.sessionVersion });
    await dropRecoveryCodes(tx, user.id);
    await enqueueMail(tx, {
      to: user.email,
      locale: isLocale(user.lang) ? user.lang : 'en',
      template: 'twoFactorDisabled',
      data: { firstName: user.firstName },
    });
    return updated!;
  });
  kickMailWorker();
  return row.version;
}
