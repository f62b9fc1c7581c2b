import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/api/errors';
import { getDb } from '@/lib/db/client';
import { peekToken } from '@/lib/auth/tokens';
import { clientIp, consumeAttempt, limits } from '@/lib/security/rate-limit';

// GET /api/password/{link} – is this reset link still valid?
export const GET = apiRoute<{ link: string }, 'none'>({ auth: 'none' }, async ({ params, request }) => {
  await consumeAttempt(limits.resetPerIp, clientIp(request.headers));
  const valid = params.link.length <= 128 && (await peekToken(await getDb(), params.link, 'reset'));
  if (!valid) throw new ApiError('invalid_reset_link');
  return { status: 'ok' };
});
