import { apiRoute } from '@/lib/api/handler';
import { twoFactorCancelSchema } from '@/lib/auth/schemas';
import { cancelTwoFactor } from '@/lib/auth/totp';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';

// POST /2fa/g2f/cancel {code, password} – turn 2FA off with the factor and the password; other
// sessions end, this one continues, and the account's address is told
export const POST = apiRoute({ auth: 'required', body: twoFactorCancelSchema }, async ({ body, user, setSession }) => {
  await consumeAttempt(limits.twoFactor, user.id);
  const version = await cancelTwoFactor(user, body);
  setSession({ userId: user.id, version, role: user.role });
  return { status: 'ok' };
});
