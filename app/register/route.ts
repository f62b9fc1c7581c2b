import { apiRoute } from '@/lib/api/handler';
import { registerAccount } from '@/lib/auth/accounts';
import { registerSchema } from '@/lib/auth/schemas';
import { clientIp } from '@/lib/security/rate-limit';

// POST /register – create an account; the activation link goes out by e-mail
export const POST = apiRoute({ auth: 'none', body: registerSchema }, async ({ body, request, locale }) => {
  await registerAccount(body, locale, clientIp(request.headers));
  return { status: 'ok', errorCode: 'email_sent' };
});
