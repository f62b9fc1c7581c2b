import 'server-only';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import type { User } from '@/lib/db/schema';
import { isLocale } from '@/lib/i18n/locales';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { consumeAttempt, limits, resetAttempts } from '@/lib/security/rate-limit';
import { deviceIdFor } from './device-cookie';
import { userForSession } from './session';
import type { SessionData } from './session-cookie';
import { checkSetupCode, verifyLoginCode } from './totp';

/**
 * What a code sent to POST /2fa/g2f/check turned out to be. A login completed with a recovery
 * code says how many are left (issue 48, point 6), for the warning the login shows.
 */
export type TwoFactorCheck = { kind: 'login-completed'; user: User; recoveryCodesLeft?: number } | { kind: 'setup-code-valid' };

/**
 * POST /2fa/g2f/check serves two steps that share one call (SPEC point 7): the second step of a
 * login (the session is pending 2FA) and step 2 of turning 2FA on (a logged-in user checks the
 * code of the secret being set up). Both count against the account's 2FA attempts, except a
 * login's code from a browser with a device token for the account (`devices`, the device cookie's
 * value), which counts against that device alone (docs/security.md, "Device cookies").
 */
export async function checkTwoFactorCode(code: string, session: SessionData | null, user: User | null, devices?: string): Promise<TwoFactorCheck> {
  if (session?.pending2fa) return { kind: 'login-completed', ...(await completeLogin(session, code, devices)) };
  if (!user) throw new ApiError('authentication_error');
  if (!(await checkSetupCode(user, code))) throw new ApiError('incorrect_data', { field: 'code' });
  return { kind: 'setup-code-valid' };
}

/**
 * The second factor of a login whose password step passed: the account, once the code is right.
 * A recovery code used is told to the account's address, with how many are left.
 */
async function completeLogin(pending: SessionData, code: string, devices: string | undefined): Promise<{ user: User; recoveryCodesLeft?: number }> {
  const device = deviceIdFor(devices, pending.userId);
  const [limit, key] = device ? [limits.twoFactorPerDevice, device] : [limits.twoFactor, pending.userId];
  await consumeAttempt(limit, key);
  const user = await userForSession({ ...pending, pending2fa: false });
  const factor = user ? await verifyLoginCode(user, code) : null;
  if (!user || !factor) throw new ApiError('authentication_error');
  await resetAttempts(limit, key);
  if (factor.via === 'app') return { user };
  await enqueueMail(await getDb(), {
    to: user.email,
    locale: isLocale(user.lang) ? user.lang : 'en',
    template: 'recoveryCodeUsed',
    data: { firstName: user.firstName, left: factor.left },
  });
  kickMailWorker();
  return { user, recoveryCodesLeft: factor.left };
}
