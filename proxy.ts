import { NextRequest, NextResponse } from 'next/server';
import createIntlMiddleware from 'next-intl/middleware';
import { SESSION_COOKIE, unsealSession } from '@/lib/auth/session-cookie';
import { isLocale } from '@/lib/i18n/locales';
import { routing } from '@/lib/i18n/routing';
import { isApiRequest, redirectFor } from '@/lib/routes';
import { apiPolicy, pagePolicy } from '@/lib/security/csp';

const handleI18nRouting = createIntlMiddleware(routing);

/** Splits "/de/login" into its locale prefix ("/de") and the path the routes know ("/login"). */
function splitLocale(pathname: string): { prefix: string; path: string } {
  const [, first, ...rest] = pathname.split('/');
  if (first && isLocale(first)) return { prefix: `/${first}`, path: `/${rest.join('/')}` };
  return { prefix: '', path: pathname };
}

/**
 * Every request passes here: API calls get their security headers; pages get a CSP nonce, the
 * redirect rules of SPEC point 2 and next-intl's locale routing. The redirects are a convenience:
 * every page and handler checks the session again itself.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;

  if (isApiRequest(pathname, request.method) || isPublicFile(pathname)) {
    return withPolicy(NextResponse.next(), apiPolicy);
  }

  const { prefix, path } = splitLocale(pathname);
  const session = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
  const target = redirectFor(path, {
    loggedIn: Boolean(session && !session.pending2fa),
    role: session?.role,
  });
  if (target) {
    const url = new URL(`${prefix}${target === '/' && prefix ? '' : target}`, request.url);
    return withPolicy(NextResponse.redirect(url), apiPolicy);
  }

  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const policy = pagePolicy(nonce, process.env.NODE_ENV === 'development');
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('Content-Security-Policy', policy);
  const response = handleI18nRouting(new NextRequest(request, { headers }));
  return withPolicy(response, policy);
}

/** Files of public/ (favicon.ico, robots.txt…) are served as they are, with a closed policy. */
function isPublicFile(pathname: string) {
  return /\/[^/]+\.[a-z0-9]+$/i.test(pathname);
}

function withPolicy(response: NextResponse, policy: string) {
  response.headers.set('Content-Security-Policy', policy);
  return response;
}

export const config = {
  // Everything but build assets, which next.config.mjs gives their headers.
  matcher: ['/((?!_next/static|_next/image).*)'],
};
