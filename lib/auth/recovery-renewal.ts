import 'server-only';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import type { User } from '@/lib/db/schema';
import { consumeAttempt, limits, resetAttempts } from '@/lib/security/rate-limit';
import { verifyPassword } from './password';
import { recoveryCodesLeft, replaceRecoveryCodes } from './recovery-codes';
import { verifyAppCode } from './totp';

/** What making new recovery codes asks for: the password, or a current code of the app. */
export interface RenewalProof {
  password?: string;
  code?: string;
}

/**
 * New recovery codes in place of all the old ones (issue 48, point 6), for a person who proves
 * again who they are: a session alone (a borrowed laptop) must not be enough to read codes that
 * get past the second factor. Meeting-card accounts have no password: they give a code.
 */
export async function renewRecoveryCodes(user: User, proof: RenewalProof): Promise<string[]> {
  await consumeAttempt(limits.twoFactor, user.id);
  if (!user.has2fa) throw new ApiError('incorrect_data');
  if (proof.code) {
    if (!(await verifyAppCode(user, proof.code))) throw new ApiError('incorrect_data', { field: 'code' });
  } else if (user.enableMCard || !proof.password || !(await verifyPassword(user.passwordHash, proof.password))) {
    throw new ApiError(proof.password ? 'invalid_old_password' : 'fill_old_password', {
      field: 'password',
    });
  }
  await resetAttempts(limits.twoFactor, user.id);
  const db = await getDb();
  return db.transaction((tx) => replaceRecoveryCodes(tx, user.id));
}

/** For the account modal: is 2FA on, and how many recovery codes are left. */
export async function recoveryStatus(user: User): Promise<{ has2FA: boolean; left: number }> {
  if (!user.has2fa) return { has2FA: false, left: 0 };
  return { has2FA: true, left: await recoveryCodesLeft(await getDb(), user.id) };
}
