import { and, eq, isNull } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { configuration, tokens, users } from '@/lib/db/schema';
import { issueToken } from '@/lib/auth/tokens';
import { verifyPassword } from '@/lib/auth/password';
import { sendInvitation } from '@/lib/registration/invitations';
import { POST as register } from '@/app/register/route';
import { GET as me } from '@/app/api/me/route';
import { GET as activate } from '@/app/invitation/activate/route';
import { GET as confirmEmail } from '@/app/invitation/confirm-email/route';
import { call, createUser, sessionCookies } from '../support/api';
import { activeAccount, fromIp, lastMailTo, logInAs, registration, uniqueEmail } from '../support/accounts';
import * as oidc from '../support/oidc-sign-in';
import { accountsWith, env, expectRefused, sessionOf, signIn, target } from '../support/oidc-sign-in';
import { recoveryCodesLeft, replaceRecoveryCodes } from '@/lib/auth/recovery-codes';
import { portBlock } from '../support/test-ports';
import { disableAccount, enableAccount } from '@/lib/admin/account-state';
import { OPERATOR } from '@/lib/audit/audit-log';

// Issue 44: single sign-on against the real provider stand-in (oidc-idp.mjs), as an attacker would
// use it. Point 1: an account registered by someone else and never activated must not keep that
// someone's password when its address's owner signs in. Point 2: the provider's claims follow the
// input rules of the forms.

// The provider's port: tests/support/test-ports.ts.
const provider = oidc.useTestIdp(portBlock('oidc-sign-in-rules'));
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

const ATTACKER_PASSWORD = 'Attackers-Own-Secret-77';
const OWNER_PASSWORD = 'Owners-Own-Secret-2026';

async function unusedTokensOf(userId: string) {
  const db = await getDb();
  return db
    .select()
    .from(tokens)
    .where(and(eq(tokens.userId, userId), isNull(tokens.usedAt)));
}

describe('an account someone else registered and never activated (point 1)', () => {
  it("loses the registrant's password, names and links when its address's owner signs in through SSO", async () => {
    // The attacker registers the victim's address with a password of their own; the activation
    // mail goes to the victim, who never follows it.
    const body = registration({
      firstName: 'Mallory',
      lastName: 'Attacker',
      password: ATTACKER_PASSWORD,
      passwordConfirm: ATTACKER_PASSWORD,
      timezone: 'Pacific/Auckland',
    });
    expect((await call(register, { body, headers: fromIp() })).status).toBe(200);
    expect((await logInAs(body.email, ATTACKER_PASSWORD)).answer.json.errorCode).toBe('login_failed_not_verified');
    const { link: activationLink } = await lastMailTo(body.email);

    // The victim signs in through the organisation's provider, which verified the address.
    const { login } = await personAtIdp({ email: body.email, given_name: 'Victoria', family_name: 'Owner' });
    const { answer } = await signIn(login);
    expect(target(answer)).toBe('/rooms');
    const [account] = await accountsWith(body.email);
    expect((await sessionOf(answer))!.userId).toBe(account!.id);

    // The attacker's password opens nothing (before: 200 and a session on the victim's account).
    const attempt = await logInAs(body.email, ATTACKER_PASSWORD);
    expect([attempt.answer.status, attempt.answer.json.errorCode, attempt.cookie]).toEqual([400, 'login_failed', undefined]);
    expect(account).toMatchObject({ state: 'active', firstName: 'Victoria', lastName: 'Owner', timezone: null });
    expect(await verifyPassword(account!.passwordHash, ATTACKER_PASSWORD)).toBe(false);
    // Nor does the pending activation link (in the victim's mailbox, but a link nobody proved).
    expect(await unusedTokensOf(account!.id)).toEqual([]);
    const url = new URL(activationLink!);
    await call(activate, { path: url.pathname + url.search, headers: fromIp() });
    expect(await unusedTokensOf(account!.id)).toEqual([]);
    // The victim still gets in the next time, through the link by subject.
    expect((await sessionOf((await signIn(login)).answer))!.userId).toBe(account!.id);
  });

  it('ends its sessions and drops its two-factor secret and pending links (reset, card)', async () => {
    // A session cookie made before activation (a meeting-card link logs in whatever the state) is
    // refused while the account is unverified, and would count once it is active; and state no
    // registrant should be able to leave behind, put there by hand.
    const { user, cookie } = await createUser({
      state: 'unverified',
      has2fa: true,
      totpSecret: 'sealed-secret-of-the-registrant',
      lang: 'de',
    });
    const db = await getDb();
    await replaceRecoveryCodes(db, user.id);
    await issueToken(db, user.id, 'reset');
    await issueToken(db, user.id, 'card_login');
    expect((await call(me, { cookies: sessionCookies(cookie) })).status).toBe(401);

    const { login } = await personAtIdp({ email: user.email, locale: 'fr' });
    const { answer } = await signIn(login);
    // Not asked for the registrant's second factor: there is none any more.
    expect(target(answer)).toBe('/rooms');
    const [after] = await db.select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({ state: 'active', has2fa: false, totpSecret: null, totpLastStep: null, lang: 'fr' });
    expect(await recoveryCodesLeft(db, user.id)).toBe(0);
    expect(after!.sessionVersion).toBeGreaterThan(user.sessionVersion);
    expect(await unusedTokensOf(user.id)).toEqual([]);
    expect((await call(me, { cookies: sessionCookies(cookie) })).status).toBe(401);
  });

  it("an admin's enabling vouches for the account, not its address: the owner's SSO still takes the registrant's password", async () => {
    // The registrant asks the operator to enable "their" account (the mail never came); the
    // operator does, without any proof of who holds the address.
    const body = registration({ firstName: 'Mallory', password: ATTACKER_PASSWORD, passwordConfirm: ATTACKER_PASSWORD });
    expect((await call(register, { body, headers: fromIp() })).status).toBe(200);
    await enableAccount({ email: body.email }, OPERATOR);
    expect((await logInAs(body.email, ATTACKER_PASSWORD)).answer.status).toBe(200);

    const { login } = await personAtIdp({ email: body.email, given_name: 'Victoria' });
    expect(target((await signIn(login)).answer)).toBe('/rooms');
    const [account] = await accountsWith(body.email);
    expect(account).toMatchObject({ state: 'active', firstName: 'Victoria', verifiedAt: expect.any(Date) });
    expect((await logInAs(body.email, ATTACKER_PASSWORD)).answer.json.errorCode).toBe('login_failed');
  });

  it('an unproven account an admin disabled stays disabled when its address signs in through SSO', async () => {
    const { user } = await createUser({ state: 'unverified' });
    await disableAccount({ id: user.id }, OPERATOR);
    const { login } = await personAtIdp({ email: user.email });
    const { answer } = await signIn(login);
    expect(target(answer)).not.toBe('/rooms');
    const [after] = await accountsWith(user.email);
    expect(after).toMatchObject({ state: 'disabled', passwordHash: expect.not.stringMatching(/^not-a-real-hash$/) });
  });

  it("an account registered through its address's invitation is the owner's: SSO links it and keeps its password", async () => {
    // The invitation went to the address, so following it proves the address as the activation
    // link would (issue 48, point 7): the account is active at once, and nothing in it is a
    // stranger's. A registration without the invitation stays unverified and is treated as above.
    env.registration = 'invitation';
    const body = registration({ password: OWNER_PASSWORD, passwordConfirm: OWNER_PASSWORD });
    const { link } = await sendInvitation({ operator: true, locale: 'en' }, body.email);
    const invitation = new URL(link).searchParams.get('invitation')!;
    expect((await call(register, { body: { ...body, invitation }, headers: fromIp() })).status).toBe(200);
    const { login } = await personAtIdp({ email: body.email });
    expect(target((await signIn(login)).answer)).toBe('/rooms');
    expect((await logInAs(body.email, OWNER_PASSWORD)).answer.status).toBe(200);
  });

  it('an account already active keeps its password, second factor and sessions: linking is all', async () => {
    const { user, cookie } = await createUser({ passwordHash: 'the-owners-hash', has2fa: true, firstName: 'Grace' });
    const { login } = await personAtIdp({ email: user.email });
    await signIn(login, 'strict');
    const [after] = await accountsWith(user.email);
    expect(after).toMatchObject({ passwordHash: 'the-owners-hash', has2fa: true, firstName: 'Grace', sessionVersion: user.sessionVersion });
    expect((await call(me, { cookies: sessionCookies(cookie) })).status).toBe(200);
  });
});

/** Every line the app writes to stdout and stderr while `run` runs. */
async function logLinesOf(run: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  const spies = [
    jest.spyOn(console, 'log').mockImplementation(keep),
    jest.spyOn(console, 'error').mockImplementation(keep),
    jest.spyOn(console, 'warn').mockImplementation(keep),
  ];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines.join('\n');
}

describe("an address put on someone else's account through POST /api/me (lib/account/email-change.ts)", () => {
  it("stays pending, so its owner's SSO sign-in makes an account of their own, and the pending link then fails", async () => {
    const { POST: updateMe } = jest.requireActual('@/app/api/me/route') as typeof import('@/app/api/me/route');
    const attacker = await activeAccount();
    const { cookie } = await logInAs(attacker.email, attacker.password);
    const victimEmail = uniqueEmail('victim');
    const change = await call(updateMe, { body: { email: victimEmail, oldPassword: attacker.password }, cookies: sessionCookies(cookie!) });
    expect(change.json.emailPending).toBe(victimEmail);
    const { link } = await lastMailTo(victimEmail);

    const { login } = await personAtIdp({ email: victimEmail, given_name: 'Victoria', family_name: 'Owner' });
    const { answer } = await signIn(login);
    const [account] = await accountsWith(victimEmail);
    expect(account!.id).not.toBe(attacker.user.id);
    expect((await sessionOf(answer))!.userId).toBe(account!.id);
    const url = new URL(link!);
    const confirmed = await call(confirmEmail, { path: url.pathname + url.search, headers: fromIp() });
    expect(confirmed.headers.get('location')).toMatch(/status=email_exists$/);
    expect(await accountsWith(attacker.email)).toEqual([expect.objectContaining({ id: attacker.user.id })]);
  });
});

describe("the provider's claims follow the input rules (point 2)", () => {
  it('a NUL in a name refuses the sign-in (incorrect_data), creates nothing and logs the claim by name only', async () => {
    const { login, email } = await personAtIdp({ given_name: 'Ev\u0000e-marker' });
    let answer!: Awaited<ReturnType<typeof signIn>>['answer'];
    const logged = await logLinesOf(async () => {
      answer = (await signIn(login)).answer;
    });
    expectRefused(answer, 'incorrect_data');
    expect(await accountsWith(email)).toHaveLength(0);
    // Before: "oidc sign-in failed" with the failed insert's values (the claims, an argon2 hash) and a stack.
    expect(logged).not.toMatch(/e-marker|\$argon2|Failed query|oidc sign-in failed/);
    expect(JSON.parse(logged.split('\n').find((line) => line.includes('oidc sign-in refused'))!)).toMatchObject({
      provider: 'test',
      reason: 'incorrect_data',
      claim: 'given_name',
    });
  });

  it.each([
    ['not an address', 'not-an-email'],
    ['a quoted local part', '"a b"@corp.test'],
    ['310 characters', `${'a'.repeat(300)}@corp.test`],
    ['two at-signs', 'x@evil.test@corp.test'],
  ])('an e-mail the register form refuses (%s) neither creates nor links an account (format_email)', async (_, email) => {
    const { login } = await personAtIdp({ email });
    expectRefused((await signIn(login)).answer, 'format_email');
    expect(await accountsWith(email)).toHaveLength(0);
  });

  it('REGISTRATION=domains: x@evil.test@corp.test is not an address of corp.test', async () => {
    env.registration = 'domains';
    env.registrationDomains = 'corp.test';
    const { login, email } = await personAtIdp({ email: 'x@evil.test@corp.test' });
    expectRefused((await signIn(login)).answer, 'format_email');
    expect(await accountsWith(email)).toHaveLength(0);
  });

  it('a name past the length rule is cut at a whole character, never inside a surrogate pair', async () => {
    const { login, email } = await personAtIdp({ given_name: `${'a'.repeat(63)}\u{1F600}tail`, family_name: 'Lovelace' });
    expect(target((await signIn(login)).answer)).toBe('/rooms');
    const [account] = await accountsWith(email);
    expect(account!.firstName).toBe('a'.repeat(63));
  });
});
