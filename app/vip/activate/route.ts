import { z } from 'zod';
import { apiRoute } from '@/lib/api/handler';
import { logInWithCard } from '@/lib/auth/accounts';
import { loggedInAnswer } from '@/lib/auth/login-session';
import { clientIp } from '@/lib/security/rate-limit';

const cardCode = z.object({ code: z.string({ error: 'invite_not_found' }).min(16, 'invite_not_found').max(128, 'invite_not_found') });

// POST /vip/activate – log in with the code of a meeting-card login link
export const POST = apiRoute({ auth: 'none', body: cardCode }, async ({ body, request, setSession }) => {
  const { session, twoFactorRequired, user } = await logInWithCard(body.code, clientIp(request.headers));
  setSession(session);
  if (twoFactorRequired) return { status: 'ok', twoFactorRequired: true };
  return loggedInAnswer(user, request);
});
