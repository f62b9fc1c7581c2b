import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/api/errors';
import { loggedInAnswer } from '@/lib/auth/login-session';
import { twoFactorCodeSchema } from '@/lib/auth/schemas';
import { userForSession } from '@/lib/auth/session';
import { checkSetupCode, verifyLoginCode } from '@/lib/auth/totp';
import { consumeAttempt, limits, resetAttempts } from '@/lib/security/rate-limit';

// POST /2fa/g2f/check – the six-digit code: completes a login, or checks step 2 of the setup
export const POST = apiRoute(
  { auth: 'optional', body: twoFactorCodeSchema },
  async ({ body, user, session, setSession }) => {
    if (session?.pending2fa) {
      await consumeAttempt(limits.twoFactor, session.userId);
      const pendingUser = await userForSession({ ...session, pending2fa: false });
      if (!pendingUser || !(await verifyLoginCode(pendingUser, body.code))) throw new ApiError('authentication_error');
      await resetAttempts(limits.twoFactor, session.userId);
      setSession({ userId: pendingUser.id, version: pendingUser.sessionVersion, role: pendingUser.role });
      return loggedInAnswer(pendingUser);
    }
    if (!user) throw new ApiError('authentication_error');
    await consumeAttempt(limits.twoFactor, user.id);
    if (!(await checkSetupCode(user, body.code))) throw new ApiError('incorrect_data', { field: 'code' });
    return { status: 'ok' };
  },
);
