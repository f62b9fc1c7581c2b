import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/api/handler';
import { activateAccount } from '@/lib/auth/accounts';
import { clientIp, consumeAttempt, limits } from '@/lib/security/rate-limit';

// GET /invitation/activate?token=… – the link of the activation e-mail
export const GET = apiRoute({ auth: 'none' }, async ({ request }) => {
  const target = new URL('/activate-account', request.url);
  try {
    await consumeAttempt(limits.activation, clientIp(request.headers));
  } catch {
    target.searchParams.set('status', 'too_many_attempts');
    return NextResponse.redirect(target, 303);
  }
  const token = request.nextUrl.searchParams.get('token') ?? '';
  const activated = token.length >= 16 && token.length <= 128 && (await activateAccount(token));
  target.searchParams.set('status', activated ? 'activated' : 'invalid');
  return NextResponse.redirect(target, 303);
});
