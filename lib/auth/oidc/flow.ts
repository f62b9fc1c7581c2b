import 'server-only';
import { NextResponse, type NextRequest } from 'next/server';
import { ApiError, type ErrorCode } from '@/lib/errors';
import { config } from '@/lib/environment';
import type { Locale } from '@/lib/i18n/locales';
import { describeError, log } from '@/lib/log';
import { clientIp, consumeAttempt, limits } from '@/lib/security/rate-limit';
import { loggedInAnswer } from '../login-session';
import { safeNextPath } from '../next-path';
import { sessionFor, type SessionData } from '../session-cookie';
import { finishAuthorization, startAuthorization } from './client';
import { providerById, redirectUriFor } from './configured';
import { OIDC_FLOW_COOKIE, flowCookieOptions, sealFlow, unsealFlow } from './flow-cookie';
import { signInWithOidc } from './sign-in';

// The two steps of "Sign in with …" as answers to the browser: redirects, never JSON, since the
// browser navigates here. A failure goes to the login page with a catalogue code (?error=), which
// the page shows in the person's language; no token or provider message ever reaches a URL or a log.

const secure = () => config.appUrl.startsWith('https:');

function redirect(path: string): NextResponse {
  return NextResponse.redirect(new URL(path, config.appUrl), 303);
}

function loginWithError(code: ErrorCode): NextResponse {
  const response = redirect(`/login?error=${code}`);
  response.cookies.set(OIDC_FLOW_COOKIE, '', flowCookieOptions(secure(), 0));
  return response;
}

/**
 * A refusal the person can act on keeps its code. The client library's refusals (state, nonce,
 * audience, a used code…) are sso_failed, logged by their code only: their messages may quote the
 * provider's answer. Anything else (the provider unreachable, a bug) is logged in full.
 */
function failure(error: unknown, provider: string): NextResponse {
  if (error instanceof ApiError) {
    // A claim the input rules refuse (claims.ts): the operator learns which one, never its value.
    if (error.field) log.warn('oidc sign-in refused', { provider, reason: error.code, claim: error.field });
    return loginWithError(error.code);
  }
  const { code, error: oauthError } = (error ?? {}) as { code?: unknown; error?: unknown };
  if (typeof code === 'string' && code.startsWith('OAUTH_')) {
    log.warn('oidc sign-in refused', { provider, reason: code, ...(typeof oauthError === 'string' && { oauthError }) });
  } else {
    log.error('oidc sign-in failed', { provider, ...describeError(error) });
  }
  return loginWithError('sso_failed');
}

/** GET /api/auth/oidc/{provider}/start: to the provider, with state, nonce and PKCE in a sealed cookie. */
export async function beginSignIn(providerId: string, request: NextRequest): Promise<NextResponse> {
  try {
    await consumeAttempt(limits.oidc, clientIp(request.headers));
    const provider = providerById(providerId);
    if (!provider) throw new ApiError('sso_failed');
    const next = safeNextPath(request.nextUrl.searchParams.get('next'));
    const { url, flow } = await startAuthorization(provider, redirectUriFor(provider), next);
    const response = NextResponse.redirect(url, 303);
    response.cookies.set(OIDC_FLOW_COOKIE, await sealFlow(flow), flowCookieOptions(secure()));
    return response;
  } catch (error) {
    return failure(error, providerId);
  }
}

/**
 * GET /api/auth/oidc/{provider}/callback: the provider's answer, checked against this browser's
 * cookie (state, nonce, PKCE) and exchanged for a verified identity; then the account's session,
 * or the two-factor step of the login page. The cookie is used up either way.
 */
export async function completeSignIn(providerId: string, request: NextRequest, locale: Locale, setSession: (data: SessionData) => void): Promise<NextResponse> {
  try {
    await consumeAttempt(limits.oidc, clientIp(request.headers));
    const provider = providerById(providerId);
    const flow = await unsealFlow(request.cookies.get(OIDC_FLOW_COOKIE)?.value);
    if (!provider || !flow || flow.provider !== provider.id) throw new ApiError('sso_failed');
    // The redirect URI as registered (APP_URL), whatever host a proxy passed on, with the answer's query.
    const callbackUrl = new URL(redirectUriFor(provider));
    callbackUrl.search = request.nextUrl.search;
    const identity = await finishAuthorization(provider, callbackUrl, flow);
    const { user, twoFactorRequired } = await signInWithOidc(provider, identity, locale);
    if (twoFactorRequired) {
      setSession({ ...sessionFor(user), pending2fa: true });
      const response = redirect(`/login?step=code&next=${encodeURIComponent(flow.next)}`);
      response.cookies.set(OIDC_FLOW_COOKIE, '', flowCookieOptions(secure(), 0));
      return response;
    }
    setSession(sessionFor(user));
    // The same as a password login's end: the person's language and a device token for this browser.
    const answered = loggedInAnswer(user, request);
    const response = redirect(flow.next);
    for (const cookie of answered.cookies.getAll()) response.cookies.set(cookie);
    response.cookies.set(OIDC_FLOW_COOKIE, '', flowCookieOptions(secure(), 0));
    return response;
  } catch (error) {
    return failure(error, providerId);
  }
}
