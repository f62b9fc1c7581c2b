import { NextRequest, NextResponse } from 'next/server';
import createIntlMiddleware from 'next-intl/middleware';
import { SESSION_COOKIE, unsealSession } from '@/lib/auth/session-cookie';
import { isLocale } from '@/lib/i18n/locales';
import { routing } from '@/lib/i18n/routing';
import { isApiRequest, redirectFor } from '@/lib/navigation/routes';
import { OFFLINE_HEADER, offlinePages, VISITOR_HOME_HEADER, VISITOR_HOME_PATH } from '@/lib/seo/pages';
import { apiPolicy, attachmentPolicy, integrityPolicy, isAttachmentPath, isWasmPage, pagePolicy, serviceWorkerPolicy, STRIPE_PAGES } from '@/lib/security/csp';
import { sfuOrigins } from '@/lib/configuration/sfu-urls';

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

  if (pathname === '/sw.js') return withPolicy(NextResponse.next(), serviceWorkerPolicy);
  // The proxy's policy replaces the one a route handler sets: an uploaded file's sandbox is set here.
  if (isAttachmentPath(pathname)) return withPolicy(NextResponse.next(), attachmentPolicy);
  if (isApiRequest(pathname, request.method) || isPublicFile(pathname)) {
    return withPolicy(NextResponse.next(), apiPolicy);
  }

  const { prefix, path } = splitLocale(pathname);
  const session = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
  const loggedIn = Boolean(session && !session.pending2fa);
  const target = redirectFor(path, { loggedIn, role: session?.role });
  if (target) {
    const url = new URL(`${prefix}${target === '/' && prefix ? '' : target}`, request.url);
    return withPolicy(NextResponse.redirect(url), apiPolicy);
  }

  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const development = process.env.NODE_ENV === 'development';
  const stripe = (STRIPE_PAGES as readonly string[]).includes(path);
  const policy = pagePolicy(nonce, development, {
    stripe,
    wasm: isWasmPage(path),
    // The meeting page opens a WebSocket to the SFU when a call moves there (issue 38).
    connect: isWasmPage(path) ? sfuOrigins(process.env.SFU_URLS) : [],
  });
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('Content-Security-Policy', policy);
  headers.delete(VISITOR_HOME_HEADER); // only this proxy may say so
  let response = handleI18nRouting(new NextRequest(request, { headers }));
  if (path === '/' && !loggedIn) response = toVisitorHome(response, request, headers);
  // A visitor's public page may be kept for offline use by the service worker; a logged-in page never.
  if (!loggedIn && request.method === 'GET' && (offlinePages as readonly string[]).includes(path)) {
    response.headers.set(OFFLINE_HEADER, 'public');
  }
  const integrity = integrityPolicy(development, stripe, process.env.ENCLAVE_SERVER_LAYER === '1');
  if (integrity) response.headers.set('Integrity-Policy', integrity);
  return withPolicy(response, policy);
}

/**
 * `/` is the dashboard for a user and the marketing page for a visitor. The visitor's page is its
 * own route (app/[locale]/(public)/welcome), so that it ships only the public pages' JavaScript
 * and not the app's: its answer is rewritten there, marked by a header that only the proxy sets.
 * A redirect of the locale routing (a saved language) is kept as it is.
 */
function toVisitorHome(response: NextResponse, request: NextRequest, headers: Headers): NextResponse {
  if (response.headers.has('location')) return response;
  const routed = response.headers.get('x-middleware-rewrite');
  const prefix = splitLocale(routed ? new URL(routed).pathname : request.nextUrl.pathname).prefix || '/en';
  headers.set(VISITOR_HOME_HEADER, '1');
  // What next-intl's own rewrite tells a page: the request's language.
  headers.set('X-NEXT-INTL-LOCALE', prefix.slice(1));
  const home = NextResponse.rewrite(new URL(`${prefix}${VISITOR_HOME_PATH}${request.nextUrl.search}`, request.url), {
    request: { headers },
  });
  // Keep what the locale routing answered besides its rewrite: its cookies.
  for (const cookie of response.cookies.getAll()) home.cookies.set(cookie);
  return home;
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
