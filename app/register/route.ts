import { apiRoute } from '@/lib/api/handler';
import { registerAccount } from '@/lib/auth/accounts';
import { registerSchema } from '@/lib/auth/schemas';
import { clientIp } from '@/lib/security/rate-limit';

// POST /register – create an account; the activation link goes out by e-mail, unless the person
// came through an invitation for that address, which proved it (issue 48): then 'success', and
// the account can log in at once.
export const POST = apiRoute({ auth: 'none', body: registerSchema }, async ({ body, request, locale }) => {
  const { active } = await registerAccount(body, locale, clientIp(request.headers));
  return { status: 'ok', errorCode: active ? 'success' : 'email_sent' };
});
