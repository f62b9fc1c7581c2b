import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';
import { confirmEmailChange } from '@/lib/account/email-change';
import { clientIp } from '@/lib/security/rate-limit';

/** What /confirm-email shows: the outcome of the link, or that it came too often. */
async function confirmationStatus(token: string, client: string): Promise<string> {
  try {
    return await confirmEmailChange(token, client);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'too_many_attempts') return 'too_many_attempts';
    throw error;
  }
}

// GET /invitation/confirm-email?token=… – the link mailed to a new address, opened from a webmail
// page (another site): it reads no session, and only the mailed token changes the address.
export const GET = apiRoute({ auth: 'none', crossSiteGet: true }, async ({ request }) => {
  const target = new URL('/confirm-email', request.url);
  const token = request.nextUrl.searchParams.get('token') ?? '';
  target.searchParams.set('status', await confirmationStatus(token, clientIp(request.headers)));
  return NextResponse.redirect(target, 303);
});
