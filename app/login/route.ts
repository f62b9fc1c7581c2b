import { apiRoute } from '@/lib/api/handler';
import { logIn } from '@/lib/auth/accounts';
import { loggedInAnswer } from '@/lib/auth/login-session';
import { loginSchema } from '@/lib/auth/schemas';
import { clientIp, consumeAttempt, limits, resetAttempts } from '@/lib/security/rate-limit';

// POST /login – e-mail and password; answers twoFactorRequired when a code must follow
export const POST = apiRoute({ auth: 'none', body: loginSchema }, async ({ body, request, setSession }) => {
  const client = clientIp(request.headers);
  const accountClient = `${body.email}|${client}`;
  await consumeAttempt(limits.loginPerIp, client);
  await consumeAttempt(limits.loginPerAccountClient, accountClient);
  await consumeAttempt(limits.loginPerAccount, body.email);
  const { session, twoFactorRequired, user } = await logIn(body.email, body.password);
  setSession(session);
  if (twoFactorRequired) return { status: 'ok', twoFactorRequired: true };
  await resetAttempts(limits.loginPerAccountClient, accountClient);
  return loggedInAnswer(user);
});
