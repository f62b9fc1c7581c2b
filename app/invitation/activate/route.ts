import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';
import { activateAccount } from '@/lib/auth/accounts';
import { clientIp } from '@/lib/security/rate-limit';

/** What /activate-account shows: the link worked, did not, or came too often. */
async function activationStatus(token: string, client: string): Promise<string> {
  try {
    return (await activateAccount(token, client)) ? 'activated' : 'invalid';
  } catch (error) {
    if (error instanceof ApiError && error.code === 'too_many_attempts') return 'too_many_attempts';
    throw error;
  }
}

// GET /invitation/activate?token=… – the link of the activation e-mail, opened from a webmail
// page (another site): it reads no session, and only the mailed token activates
export const GET = apiRoute({ auth: 'none', crossSiteGet: true }, async ({ request }) => {
  const target = new URL('/activate-account', request.url);
  const token = request.nextUrl.searchParams.get('token') ?? '';
  target.searchParams.set('status', await activationStatus(token, clientIp(request.headers)));
  return NextResponse.redirect(target, 303);
});
