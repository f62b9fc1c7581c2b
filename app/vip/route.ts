import { apiRoute } from '@/lib/api/handler';
import { sendCardLoginLink } from '@/lib/auth/accounts';
import { forgotPasswordSchema } from '@/lib/auth/schemas';
import { clientIp } from '@/lib/security/rate-limit';

// POST /vip – a meeting-card holder asks for a one-time login link by e-mail
export const POST = apiRoute({ auth: 'none', body: forgotPasswordSchema }, async ({ body, request }) => {
  await sendCardLoginLink(body.email, clientIp(request.headers));
  return { status: 'ok', errorCode: 'email_sent' };
});
