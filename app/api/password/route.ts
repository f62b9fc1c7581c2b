import { apiRoute } from '@/lib/api/handler';
import { requestPasswordReset } from '@/lib/auth/accounts';
import { forgotPasswordSchema } from '@/lib/auth/schemas';
import { clientIp } from '@/lib/security/rate-limit';

// POST /api/password – forgot password: mails a reset link if the account exists (same answer,
// in the same time, either way)
export const POST = apiRoute({ auth: 'none', body: forgotPasswordSchema }, async ({ body, request }) => {
  await requestPasswordReset(body.email, clientIp(request.headers));
  return { status: 'ok', errorCode: 'email_sent' };
});
