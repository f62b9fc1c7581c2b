import { apiRoute } from '@/lib/api/handler';
import { logIn } from '@/lib/auth/accounts';
import { DEVICE_COOKIE } from '@/lib/auth/device-cookie';
import { loggedInAnswer } from '@/lib/auth/login-session';
import { loginSchema } from '@/lib/auth/schemas';
import { clientIp } from '@/lib/security/rate-limit';

// POST /login – e-mail and password; answers twoFactorRequired when a code must follow
export const POST = apiRoute({ auth: 'none', body: loginSchema }, async ({ body, request, setSession }) => {
  const devices = request.cookies.get(DEVICE_COOKIE)?.value;
  const { session, twoFactorRequired, user } = await logIn(body.email, body.password, clientIp(request.headers), devices);
  setSession(session);
  if (twoFactorRequired) return { status: 'ok', twoFactorRequired: true };
  return loggedInAnswer(user, request);
});
