import { apiRoute } from '@/lib/api/handler';
import { twoFactorCancelSchema } from '@/lib/auth/schemas';
import { sessionFor } from '@/lib/auth/session-cookie';
import { cancelTwoFactor } from '@/lib/auth/totp';

// POST /2fa/g2f/cancel {code, password} – turn 2FA off with the factor and the password; other
// sessions end, this one continues, and the account's address is told
export const POST = apiRoute({ auth: 'required', body: twoFactorCancelSchema }, async ({ body, user, setSession }) => {
  const version = await cancelTwoFactor(user, body);
  setSession(sessionFor(user, version));
  return { status: 'ok' };
});
