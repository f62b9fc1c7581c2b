import { NextResponse, type NextRequest } from 'next/server';
import { endSession, isCrossSite } from '@/lib/auth/logout';
import { userForSession } from '@/lib/auth/session';
import { SESSION_COOKIE, unsealSession } from '@/lib/auth/session-cookie';
import { describeError, log } from '@/lib/log';

function redirect(request: NextRequest, path: string) {
  const response = NextResponse.redirect(new URL(path, request.url), { status: 303 });
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

// GET /logout – ends this browser's session on the server and goes to the login page
export async function GET(request: NextRequest) {
  const session = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
  const user = await userForSession(session);
  // Another site cannot log a person out; a cookie that no longer counts is cleared all the same,
  // so that a page's redirect here for a stale cookie never loops.
  if (user && isCrossSite(request.headers)) return redirect(request, '/');
  if (user && session) {
    // Should the database fail, the cookie is still cleared here: better than a 500 page.
    await endSession(session).catch((error) => log.error('logout could not revoke the session', describeError(error)));
  }
  const response = redirect(request, '/login');
  response.cookies.set(SESSION_COOKIE, '', { path: '/', maxAge: 0, httpOnly: true, sameSite: 'lax' });
  // The calendar's answers are kept by the browser for revalidation (private, no-cache): they
  // go with the session, not with the next person at this computer.
  response.headers.set('Clear-Site-Data', '"cache"');
  return response;
}
