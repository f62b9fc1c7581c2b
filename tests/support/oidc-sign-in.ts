// "Sign in with …" as a browser does it, against the real OpenID provider of oidc-idp.mjs: the
// app's start and callback routes called with the browser's headers and cookies, the provider's
// pages driven by hand (oidc-idp-process.ts). Shared by the sign-in tests and the claim sweep.
import { eq, sql } from 'drizzle-orm';
import { config } from '@/lib/environment';
import { getDb } from '@/lib/db/client';
import { oidcLinks, users } from '@/lib/db/schema';
import { SESSION_COOKIE, unsealSession } from '@/lib/auth/session-cookie';
import { OIDC_FLOW_COOKIE } from '@/lib/auth/oidc/flow-cookie';
import { GET as start } from '@/app/api/auth/oidc/[provider]/start/route';
import { GET as callback } from '@/app/api/auth/oidc/[provider]/callback/route';
import { call, cookieFrom, type Answer } from './api';
import { fromIp } from './accounts';
import { logInAtIdp, startTestIdp, type TestIdp } from './oidc-idp-process';

export const redirectUri = (id: string) => `${config.appUrl}/api/auth/oidc/${id}/callback`;
export const env = config as unknown as { oidcProviders?: string; registration?: string; registrationDomains?: string };

/**
 * Starts a provider on `port` for the file's tests (its own port per file and database project:
 * Jest may run them at once) and configures it as "test", and once more as "strict" (mfa: true).
 */
export function useTestIdp(port: number): { readonly idp: TestIdp } {
  const holder = {} as { idp: TestIdp };
  beforeAll(async () => {
    await getDb();
    holder.idp = await startTestIdp(port, [redirectUri('test'), redirectUri('strict')]);
    const provider = { issuer: holder.idp.issuer, clientId: 'enclave', clientSecret: 'enclave-secret' };
    env.oidcProviders = JSON.stringify([
      { id: 'test', name: 'Test IdP', ...provider },
      { id: 'strict', name: 'Strict IdP', ...provider, mfa: true },
    ]);
  }, 60_000);
  afterAll(async () => {
    await holder.idp?.stop();
  });
  return holder;
}

let counter = 0;
/** A login name at the provider no other test uses, with the claims it answers. */
export async function personAtIdp(idp: TestIdp, claims: Record<string, unknown> = {}) {
  counter += 1;
  const login = `person${counter}-${Date.now()}`;
  const full = { email: `${login}@example.test`, email_verified: true, given_name: 'Ada', family_name: 'Lovelace', ...claims };
  await idp.setAccounts({ [login]: full });
  return { login, email: String(full.email) };
}

/** The login page's link: answers the provider's URL and this browser's flow cookie. */
export async function startSignIn(provider = 'test', headers: Record<string, string> = fromIp()) {
  const answer = await call(start, {
    path: `/api/auth/oidc/${provider}/start?next=/rooms`,
    params: { provider },
    headers: { 'sec-fetch-site': 'same-origin', ...headers },
  });
  return { answer, location: answer.headers.get('location') ?? '', flow: cookieFrom(answer, OIDC_FLOW_COOKIE) ?? '' };
}

/** The provider's redirect back, as the browser sends it: a navigation from another site, with the cookie. */
export function returnFromIdp(url: URL, flow: string | undefined, provider = 'test') {
  return call(callback, {
    path: url.pathname + url.search,
    params: { provider },
    cookies: flow ? { [OIDC_FLOW_COOKIE]: flow } : {},
    headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', ...fromIp() },
  });
}

/** One whole sign-in as `login`; answers the callback's answer and the URL the provider sent back. */
export async function signIn(login: string, provider = 'test') {
  const { location, flow } = await startSignIn(provider);
  const back = await logInAtIdp(location, login, (url) => url.href.startsWith(redirectUri(provider)));
  return { answer: await returnFromIdp(back, flow, provider), back, flow };
}

export const target = (answer: Answer) => {
  const url = new URL(answer.headers.get('location')!);
  return url.pathname + url.search;
};
export const sessionOf = async (answer: Answer) => unsealSession(cookieFrom(answer, SESSION_COOKIE) || undefined);

export async function accountsWith(email: string) {
  const db = await getDb();
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
}
export async function linksOf(userId: string) {
  const db = await getDb();
  return db.select().from(oidcLinks).where(eq(oidcLinks.userId, userId));
}

/** A refusal: to the login page with its code, no session, the flow cookie cleared. */
export function expectRefused(answer: Answer, code: string) {
  expect([answer.status, target(answer)]).toEqual([303, `/login?error=${code}`]);
  expect(cookieFrom(answer, SESSION_COOKIE)).toBeUndefined();
  expect(cookieFrom(answer, OIDC_FLOW_COOKIE)).toBe('');
}
