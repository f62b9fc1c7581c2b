import { apiRoute } from '@/lib/api/handler';
import { resendActivation } from '@/lib/auth/accounts';
import { forgotPasswordSchema } from '@/lib/auth/schemas';
import { clientIp } from '@/lib/security/rate-limit';

// POST /invitation – send the activation e-mail again (same answer whether the account exists or not)
export const POST = apiRoute({ auth: 'none', body: forgotPasswordSchema }, async ({ body, request }) => {
  await resendActivation(body.email, clientIp(request.headers));
  return { status: 'ok', errorCode: 'email_sent' };
});
