import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { configuration, invitations } from '@/lib/db/schema';
import { sendInvitation } from '@/lib/registration/invitations';
import { OIDC_FLOW_COOKIE } from '@/lib/auth/oidc/flow-cookie';
import { GET as start } from '@/app/api/auth/oidc/[provider]/start/route';
import { call, cookieFrom, createUser, type Answer } from '../support/api';
import { fromIp } from '../support/accounts';
import { logInAtIdp, tokensForOtherClient } from '../support/oidc-idp-process';
import * as oidc from '../support/oidc-sign-in';
import { accountsWith, env, expectRefused, linksOf, redirectUri, returnFromIdp, sessionOf, signIn, startSignIn, target } from '../support/oidc-sign-in';
import { portBlock } from '../support/test-ports';

// Issue 35, item 3: "Sign in with …" against a real OpenID provider (oidc-provider) on loopback.
// The routes are called as the browser would call them; the provider's pages are driven by hand.

// The provider's port: tests/support/test-ports.ts.
const provider = oidc.useTestIdp(portBlock('oidc-sign-in'));
const personAtIdp = (claims?: Record<string, unknown>) => oidc.personAtIdp(provider.idp, claims);

afterAll(async () => {
  await closeDb();
});
afterEach(async () => {
  env.registration = undefined;
  env.registrationDomains = undefined;
  const db = await getDb();
  await db.update(configuration).set({ registration: null, registrationDomains: null }).where(eq(configuration.id, 1));
});

describe('start', () => {
  it('sends the browser to the provider with PKCE (S256), state and nonce, and seals them in an HttpOnly cookie', async () => {
    const { answer, location, flow } = await startSignIn();
    expect(answer.status).toBe(303);
    const url = new URL(location);
    expect(url.origin + url.pathname).toBe(`${provider.idp.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'enclave',
      redirect_uri: redirectUri('test'),
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    for (const param of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(param)).toMatch(/^[\w-]{40,}$/);
    // Sealed: neither the state nor the verifier can be read from the cookie.
    expect(flow).not.toContain(url.searchParams.get('state'));
    const header = answer.headers.getSetCookie().find((line) => line.startsWith(`${OIDC_FLOW_COOKIE}=`))!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    expect(header).toMatch(/Path=\/api\/auth\/oidc/);
  });

  it('an unknown provider goes back to the login page with sso_failed', async () => {
    const answer = await call(start, { path: '/api/auth/oidc/nope/start', params: { provider: 'nope' }, headers: fromIp() });
    expectRefused(answer, 'sso_failed');
  });

  it('is refused when another site starts it (a GET that sets a cookie)', async () => {
    const answer = await call(start, {
      path: '/api/auth/oidc/test/start',
      params: { provider: 'test' },
      headers: { 'sec-fetch-site': 'cross-site', ...fromIp() },
    });
    expect([answer.status, answer.json.errorCode]).toEqual([403, 'authentication_error']);
  });
});

describe('just-in-time accounts', () => {
  it('creates a verified, active account on the first sign-in (registration open), linked by subject', async () => {
    const { login, email } = await personAtIdp({ locale: 'de' });
    const { answer } = await signIn(login);
    expect([answer.status, target(answer)]).toEqual([303, '/rooms']);
    const [user] = await accountsWith(email);
    expect(user).toMatchObject({ state: 'active', firstName: 'Ada', lastName: 'Lovelace', lang: 'de', has2fa: false });
    expect(user!.verifiedAt).toBeInstanceOf(Date);
    expect(await sessionOf(answer)).toMatchObject({ userId: user!.id, version: user!.sessionVersion });
    expect((await sessionOf(answer))!.pending2fa).toBeUndefined();
    expect((await linksOf(user!.id)).map((link) => [link.provider, link.subject])).toEqual([['test', login]]);
    expect(cookieFrom(answer, OIDC_FLOW_COOKIE)).toBe('');
  });

  it('closed: refused with registration_closed, nothing created', async () => {
    env.registration = 'closed';
    const { login, email } = await personAtIdp();
    expectRefused((await signIn(login)).answer, 'registration_closed');
    expect(await accountsWith(email)).toHaveLength(0);
  });

  it('invitation: refused with registration_invitation_required', async () => {
    env.registration = 'invitation';
    const { login, email } = await personAtIdp();
    expectRefused((await signIn(login)).answer, 'registration_invitation_required');
    expect(await accountsWith(email)).toHaveLength(0);
  });

  it('invitation: an invitation to the address admits it once, as its link would', async () => {
    env.registration = 'invitation';
    const { login, email } = await personAtIdp();
    await sendInvitation({ operator: true, locale: 'en' }, email);
    expect(target((await signIn(login)).answer)).toBe('/rooms');
    expect(await accountsWith(email)).toHaveLength(1);
    const db = await getDb();
    const [invitation] = await db.select().from(invitations).where(eq(invitations.email, email));
    expect(invitation!.usedAt).toBeInstanceOf(Date);
  });

  it('domains: an address of a listed domain gets an account, another is refused', async () => {
    env.registration = 'domains';
    env.registrationDomains = 'allowed.example';
    const inside = await personAtIdp({ email: `in${Date.now()}@allowed.example` });
    expect(target((await signIn(inside.login)).answer)).toBe('/rooms');
    expect(await accountsWith(inside.email)).toHaveLength(1);
    const outside = await personAtIdp();
    expectRefused((await signIn(outside.login)).answer, 'registration_domain_not_allowed');
    expect(await accountsWith(outside.email)).toHaveLength(0);
  });

  it("the admin's setting wins over the environment, as for the register form", async () => {
    const db = await getDb();
    await db.update(configuration).set({ registration: 'closed' }).where(eq(configuration.id, 1));
    const { login } = await personAtIdp();
    expectRefused((await signIn(login)).answer, 'registration_closed');
  });

  it('an address the provider did not verify creates nothing (sso_email_not_verified)', async () => {
    const { login, email } = await personAtIdp({ email_verified: false });
    expectRefused((await signIn(login)).answer, 'sso_email_not_verified');
    expect(await accountsWith(email)).toHaveLength(0);
  });
});

describe('matching accounts', () => {
  it('later sign-ins match by subject, not e-mail: a changed address at the provider finds the same account', async () => {
    const { login, email } = await personAtIdp();
    await signIn(login);
    const [user] = await accountsWith(email);
    await provider.idp.setAccounts({ [login]: { email: `renamed-${email}`, email_verified: true } });
    const { answer } = await signIn(login);
    expect(target(answer)).toBe('/rooms');
    expect((await sessionOf(answer))!.userId).toBe(user!.id);
    expect(await accountsWith(`renamed-${email}`)).toHaveLength(0);
  });

  it('registration closed does not stop an account that is already linked', async () => {
    const { login, email } = await personAtIdp();
    await signIn(login);
    env.registration = 'closed';
    const { answer } = await signIn(login);
    expect((await sessionOf(answer))!.userId).toBe((await accountsWith(email))[0]!.id);
  });

  it('links an existing local account when the provider verified its address', async () => {
    const { user } = await createUser();
    const { login } = await personAtIdp({ email: user.email.toUpperCase() });
    const { answer } = await signIn(login);
    expect((await sessionOf(answer))!.userId).toBe(user.id);
    expect((await linksOf(user.id)).map((link) => link.subject)).toEqual([login]);
  });

  it('activates an unverified local account whose address the provider verified', async () => {
    const { user } = await createUser({ state: 'unverified' });
    const { login } = await personAtIdp({ email: user.email });
    await signIn(login);
    const [after] = await accountsWith(user.email);
    expect(after!.state).toBe('active');
  });

  it('an unverified e-mail never links to the local account of that address (sso_email_not_verified)', async () => {
    const { user } = await createUser();
    const { login } = await personAtIdp({ email: user.email, email_verified: false });
    expectRefused((await signIn(login)).answer, 'sso_email_not_verified');
    expect(await linksOf(user.id)).toHaveLength(0);
    // Nor does an address the provider leaves out.
    const missing = await personAtIdp({ email: undefined, email_verified: undefined });
    expectRefused((await signIn(missing.login)).answer, 'sso_email_not_verified');
  });

  it('a disabled account is refused like its password login (login_failed_expired)', async () => {
    const { user } = await createUser({ state: 'disabled' });
    const { login } = await personAtIdp({ email: user.email });
    expectRefused((await signIn(login)).answer, 'login_failed_expired');
  });
});

describe('two-factor authentication', () => {
  it('is still asked after a provider the operator did not mark as enforcing MFA', async () => {
    const { user } = await createUser({ has2fa: true });
    const { login } = await personAtIdp({ email: user.email });
    const { answer } = await signIn(login);
    expect(target(answer)).toBe(`/login?step=code&next=${encodeURIComponent('/rooms')}`);
    expect(await sessionOf(answer)).toMatchObject({ userId: user.id, pending2fa: true });
  });

  it('is skipped after a provider marked as enforcing MFA (mfa: true)', async () => {
    const { user } = await createUser({ has2fa: true });
    const { login } = await personAtIdp({ email: user.email });
    const { answer } = await signIn(login, 'strict');
    expect(target(answer)).toBe('/rooms');
    const session = await sessionOf(answer);
    expect(session).toMatchObject({ userId: user.id });
    expect(session!.pending2fa).toBeUndefined();
  });
});

describe('forged and replayed answers', () => {
  it('a wrong state is refused (sso_failed) and creates nothing', async () => {
    const { login, email } = await personAtIdp();
    const { location, flow } = await startSignIn();
    const back = await logInAtIdp(location, login, (url) => url.href.startsWith(redirectUri('test')));
    back.searchParams.set('state', 'forged-state-of-another-browser');
    expectRefused(await returnFromIdp(back, flow), 'sso_failed');
    expect(await accountsWith(email)).toHaveLength(0);
  });

  it("another browser's answer (no flow cookie, or another one's) is refused", async () => {
    const { login, email } = await personAtIdp();
    const { location } = await startSignIn();
    const back = await logInAtIdp(location, login, (url) => url.href.startsWith(redirectUri('test')));
    expectRefused(await returnFromIdp(back, undefined), 'sso_failed');
    const { flow: mine } = await startSignIn();
    expectRefused(await returnFromIdp(back, mine), 'sso_failed');
    // A cookie made for one provider does not finish a sign-in at another.
    const { flow: forTest } = await startSignIn('test');
    expectRefused(await returnFromIdp(back, forTest, 'strict'), 'sso_failed');
    expect(await accountsWith(email)).toHaveLength(0);
  });

  it('a replayed code is refused, even with the original cookie', async () => {
    const { login } = await personAtIdp();
    const { answer, back, flow } = await signIn(login);
    expect(target(answer)).toBe('/rooms');
    expectRefused(await returnFromIdp(back, flow), 'sso_failed');
  });

  it('an ID token the provider issued to another client is refused (audience)', async () => {
    const { login, email } = await personAtIdp();
    const { location, flow } = await startSignIn();
    const nonce = new URL(location).searchParams.get('nonce')!;
    // A genuine token of the same provider, same person and the same nonce, but for client "other".
    const foreign = await tokensForOtherClient(provider.idp.issuer, login, nonce);
    expect(JSON.parse(Buffer.from(String(foreign.id_token).split('.')[1]!, 'base64url').toString())).toMatchObject({ aud: 'other', nonce });
    const back = await logInAtIdp(location, login, (url) => url.href.startsWith(redirectUri('test')));
    await provider.idp.overrideNextToken(foreign);
    expectRefused(await returnFromIdp(back, flow), 'sso_failed');
    expect(await accountsWith(email)).toHaveLength(0);
  });

  it('an error from the provider (the person cancelled) goes back to the login page', async () => {
    const { flow } = await startSignIn();
    const url = new URL(redirectUri('test'));
    url.search = 'error=access_denied&state=x';
    expectRefused(await returnFromIdp(url, flow), 'sso_failed');
  });
});

describe('rate limit', () => {
  it('counts starts and callbacks per client, then answers too_many_attempts', async () => {
    const client = fromIp();
    let last: Answer | undefined;
    for (let attempt = 0; attempt < 61; attempt += 1) last = (await startSignIn('test', client)).answer;
    expectRefused(last!, 'too_many_attempts');
    // Another client is not affected.
    expect((await startSignIn('test')).answer.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?/);
  });
});
