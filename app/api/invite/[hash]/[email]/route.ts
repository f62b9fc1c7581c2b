import { ApiError } from '@/lib/errors';
import { apiRoute } from '@/lib/api/handler';
import { inviteByEmail } from '@/lib/meeting-server/invite';

// GET /api/invite/{hash}/{email} – invite someone by e-mail to a room's meeting (SPEC point 7)
export const GET = apiRoute<RouteContext<'/api/invite/[hash]/[email]'>, 'required'>({ auth: 'required' }, async ({ user, params, request, locale }) => {
  // This GET sends mail: only the app's own pages may call it, never another site's <img>.
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin') throw new ApiError('authentication_error', { status: 403 });
  await inviteByEmail(user, params.hash, safeDecode(params.email), locale);
  return { status: 'ok' };
});

/** Route params arrive decoded by Next.js; decoding again is harmless for addresses and never throws here. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
