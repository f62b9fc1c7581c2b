import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';
import { checkResetLink } from '@/lib/auth/accounts';
import { clientIp } from '@/lib/security/rate-limit';

// GET /api/password/{link} – is this reset link still valid?
export const GET = apiRoute<RouteContext<'/api/password/[link]'>, 'none'>({ auth: 'none' }, async ({ params, request }) => {
  if (!(await checkResetLink(params.link, clientIp(request.headers)))) throw new ApiError('invalid_reset_link');
  return { status: 'ok' };
});
