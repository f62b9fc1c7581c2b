import { apiRoute } from '@/lib/api/handler';
import { loggedInAnswer } from '@/lib/auth/login-session';
import { twoFactorCodeSchema } from '@/lib/auth/schemas';
import { DEVICE_COOKIE } from '@/lib/auth/device-cookie';
import { sessionFor } from '@/lib/auth/session-cookie';
import { checkTwoFactorCode } from '@/lib/auth/two-factor-check';

// POST /2fa/g2f/check – the six-digit code (or a recovery code): completes a login, or checks step 2 of the setup
export const POST = apiRoute({ auth: 'optional', body: twoFactorCodeSchema }, async ({ body, request, user, session, setSession }) => {
  const result = await checkTwoFactorCode(body.code, session, user, request.cookies.get(DEVICE_COOKIE)?.value);
  if (result.kind === 'setup-code-valid') return { status: 'ok' };
  setSession(sessionFor(result.user));
  // After a recovery code: how many are left, for the login's warning (issue 48, point 6).
  return loggedInAnswer(result.user, request, result.recoveryCodesLeft === undefined ? {} : { recoveryCodesLeft: result.recoveryCodesLeft });
});
