import { apiRoute } from '@/lib/api/handler';
import { requestPasswordReset } from '@/lib/auth/accounts';
import { forgotPasswordSchema } from '@/lib/auth/schemas';
import { runAfterAnswer } from '@/lib/background';
import { clientIp, consumeAttempt, limits } from '@/lib/security/rate-limit';

// POST /api/password – forgot password: mails a reset link if the account exists (same answer,
// in the same time, either way: the lookup and the link are made after the answer)
export const POST = apiRoute({ auth: 'none', body: forgotPasswordSchema }, async ({ body, request }) => {
  await consumeAttempt(limits.resetPerIp, clientIp(request.headers));
  await consumeAttempt(limits.reset, body.email);
  runAfterAnswer('password reset', () => requestPasswordReset(body.email));
  return { status: 'ok', errorCode: 'email_sent' };
});
