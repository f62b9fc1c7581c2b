import { apiRoute } from '@/lib/api/handler';
import { resendActivation } from '@/lib/auth/accounts';
import { forgotPasswordSchema } from '@/lib/auth/schemas';
import { clientIp, consumeAttempt, limits } from '@/lib/security/rate-limit';

// POST /invitation – send the activation e-mail again (same answer whether the account exists or not)
export const POST = apiRoute({ auth: 'none', body: forgotPasswordSchema }, async ({ body, request }) => {
  await consumeAttempt(limits.activation, clientIp(request.headers));
  await consumeAttempt(limits.reset, `activation:${body.email}`);
  await resendActivation(body.email);
  return { status: 'ok', errorCode: 'email_sent' };
});
