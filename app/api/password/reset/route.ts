import { apiRoute } from '@/lib/api/handler';
import { resetPassword } from '@/lib/auth/accounts';
import { resetPasswordSchema } from '@/lib/auth/schemas';
import { clientIp } from '@/lib/security/rate-limit';

// POST /api/password/reset – the new password, with the link's hash from /resetpassword/{hash}
export const POST = apiRoute({ auth: 'none', body: resetPasswordSchema }, async ({ body, request, setSession }) => {
  await resetPassword(body.link, body.password, clientIp(request.headers));
  setSession(null);
  return { status: 'ok' };
});
