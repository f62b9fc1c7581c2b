import { apiRoute } from '@/lib/api/handler';
import { requestPasswordReset } from '@/lib/auth/accounts';
import { forgotPasswordSchema } from '@/lib/auth/schemas';
import { clientIp, consumeAttempt, limits } from '@/lib/security/rate-limit';

// POST /api/password – forgot password: mails a reset link if the account exists (same answer either way)
export const POST = apiRoute({ auth: 'none', body: forgotPasswordSchema }, async ({ body, request }) => {
  await consumeAttempt(limits.resetPerIp, clientIp(request.headers));
  await consumeAttempt(limits.reset, body.email);
  await requestPasswordReset(body.email);
  return { status: 'ok', errorCode: 'email_sent' };
});
