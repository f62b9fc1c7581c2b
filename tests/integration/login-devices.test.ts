// Issue 32, item 4: guessing spread over many addresses (11 × 10 wrong passwords) locked a
// person out of their account for an hour. Device cookies (OWASP): a browser that completed a
// login keeps logging in under a limit of its own; unknown browsers meet the account-wide limit,
// whose first refusal tells the account by mail, once per window.
import { and, eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import type * as AccountsSupport from '../support/accounts';
import type * as ApiSupport from '../support/api';
import type * as DbModule from '@/lib/db/client';
import type * as MailModule from '@/lib/mail';
import type * as DeviceCookie from '@/lib/auth/device-cookie';
import type * as DataKey from '@/lib/security/data-key';
import type { POST as LoginHandler } from '@/app/login/route';
import type { POST as CheckHandler } from '@/app/2fa/g2f/check/route';
import type { POST as FinishHandler } from '@/app/2fa/g2f/finish/route';
import type { GET as SetupHandler } from '@/app/2fa/g2f/setup/route';
import { mailOutbox, rateLimits, users } from '@/lib/db/schema';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';
import { useOwnPostgresDatabase } from '../support/own-postgres-database';

const DEVICE = 'enclave_device';
const WRONG = 'Wrong-Password-1';

let smtp: TestSmtpServer;
let dropOwnDatabase: (() => Promise<void>) | undefined;
let db: DbModule.Database;
let closeDb: () => Promise<void>;
let mail: typeof MailModule;
let device: typeof DeviceCookie;
let openSecret: (typeof DataKey)['openSecret'];
let afterAnswerSettled: () => Promise<void>;
let accounts: typeof AccountsSupport;
let api: typeof ApiSupport;
let login: typeof LoginHandler;
let check: typeof CheckHandler;
let finish: typeof FinishHandler;
let setup: typeof SetupHandler;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // lib/environment reads SMTP_URL once, when first imported: everything that reaches it is
  // imported below, after it points at this server. This file sends every due mail of its
  // database, so on PostgreSQL it has a database of its own.
  process.env.SMTP_URL = smtp.url;
  dropOwnDatabase = await useOwnPostgresDatabase('enclave_test_login_devices');
  const client = await import('@/lib/db/client');
  db = await client.getDb();
  closeDb = client.closeDb;
  mail = await import('@/lib/mail');
  device = await import('@/lib/auth/device-cookie');
  ({ openSecret } = await import('@/lib/security/data-key'));
  ({ afterAnswerSettled } = await import('@/lib/after-answer'));
  accounts = await import('../support/accounts');
  api = await import('../support/api');
  ({ POST: login } = await import('@/app/login/route'));
  ({ POST: check } = await import('@/app/2fa/g2f/check/route'));
  ({ POST: finish } = await import('@/app/2fa/g2f/finish/route'));
  ({ GET: setup } = await import('@/app/2fa/g2f/setup/route'));
}, 30_000);

afterAll(async () => {
  await closeDb?.();
  await dropOwnDatabase?.();
  await smtp?.close();
});

/** One login attempt from `ip`, with the browser's device cookie when it has one. */
function attempt(email: string, password: string, ip?: string, devices?: string) {
  return api.call(login, {
    body: { email, password },
    headers: accounts.fromIp(ip),
    cookies: devices ? { [DEVICE]: devices } : {},
  });
}

/** Logs in from a browser (its device cookie, if any) and answers the browser's new cookie. */
async function logInFrom(email: string, password: string, devices?: string): Promise<string> {
  const answer = await attempt(email, password, undefined, devices);
  expect(answer.json).toMatchObject({ status: 'ok', twoFactorRequired: false });
  const cookie = api.cookieFrom(answer, DEVICE);
  expect(cookie).toBeTruthy();
  return cookie!;
}

/** The account-wide window for unknown browsers, as if `points` attempts had been made already. */
async function spendAccountWindow(email: string, points: number) {
  const expiresAt = new Date(Date.now() + 3600_000);
  await db
    .insert(rateLimits)
    .values({ key: `login-account:${email.toLowerCase()}`, points, expiresAt })
    .onConflictDoUpdate({ target: rateLimits.key, set: { points, expiresAt } });
}

const failedLoginMails = (to: string, subject: string) =>
  db
    .select()
    .from(mailOutbox)
    .where(and(eq(sql`lower(${mailOutbox.to})`, to.toLowerCase()), eq(mailOutbox.subject, subject)));

describe('the device cookie of a complete login', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site, kept a year, and names neither the e-mail nor the account', async () => {
    const { email, password, user } = await accounts.activeAccount();
    const answer = await attempt(email, password);
    expect(answer.status).toBe(200);
    const line = answer.headers.getSetCookie().find((header) => header.startsWith(`${DEVICE}=`))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=lax/i);
    expect(line).toMatch(/Path=\/(;|$)/);
    expect(line).toMatch(/Max-Age=31536000/);
    // APP_URL is http:// in the tests: Secure would keep the cookie from ever coming back.
    expect(line).not.toMatch(/Secure/i);
    const value = api.cookieFrom(answer, DEVICE)!;
    expect(value).toMatch(/^[0-9a-f]{32}\.[0-9a-z]+\.[\w-]{22}$/);
    for (const secret of [email, email.split('@')[0]!, user.id, user.id.replace(/-/g, '')]) expect(value).not.toContain(secret);
  });

  it('is not given for a wrong password, nor before the second factor; the second factor gives it', async () => {
    const account = await accounts.activeAccount();
    expect(api.cookieFrom(await attempt(account.email, WRONG), DEVICE)).toBeUndefined();

    // Two-factor authentication on, as the account modal does it.
    const session = api.cookieFrom(await attempt(account.email, account.password), 'enclave_session')!;
    await api.call(setup, { cookies: api.sessionCookies(session) });
    const [stored] = await db.select().from(users).where(eq(users.id, account.user.id));
    const secret = openSecret(stored!.totpSecret!, stored!.id);
    const code = await generate({ secret });
    await api.call(check, { body: { code }, cookies: api.sessionCookies(session) });
    expect((await api.call(finish, { body: { code }, cookies: api.sessionCookies(session) })).json.status).toBe('ok');

    const pending = await attempt(account.email, account.password);
    expect(pending.json).toEqual({ status: 'ok', twoFactorRequired: true });
    expect(api.cookieFrom(pending, DEVICE)).toBeUndefined();
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const done = await api.call(check, { body: { code: next }, cookies: api.sessionCookies(api.cookieFrom(pending, 'enclave_session')!) });
    expect(done.json.status).toBe('ok');
    const token = api.cookieFrom(done, DEVICE)!;
    expect(token).toMatch(/^[0-9a-f]{32}\./);

    // The browser is now known: with the account's unknown-browser window spent, it still logs in.
    await spendAccountWindow(account.email, 500);
    expect((await attempt(account.email, account.password)).status).toBe(429);
    expect((await attempt(account.email, account.password, undefined, token)).json).toEqual({ status: 'ok', twoFactorRequired: true });
  });
});

describe('guessing spread over many addresses (issue 32, item 4)', () => {
  it('locks unknown browsers out for the hour, but not the browser the person logged in with before', async () => {
    const { email, password } = await accounts.activeAccount({ lang: 'de' });
    // The person logged in from home once (this counts one attempt of the account's window).
    const home = await logInFrom(email, password);

    const statuses: number[] = [];
    for (let address = 1; address <= 11; address += 1) {
      for (let i = 0; i < 10; i += 1) statuses.push((await attempt(email, WRONG, `198.18.${address}.7`)).status);
    }
    expect(statuses.slice(0, 99)).toEqual(Array(99).fill(400));
    expect(statuses.slice(99)).toEqual(Array(11).fill(429));

    // An unknown browser waits for the hour, even with the right password…
    const unknown = await attempt(email, password, '203.0.113.9');
    expect(unknown.status).toBe(429);
    expect(unknown.json.errorCode).toBe('too_many_attempts');
    expect(Number(unknown.headers.get('retry-after'))).toBeGreaterThan(3000);

    // …the person's own browser does not, from whatever address it comes.
    const back = await attempt(email, password, '203.0.113.10', home);
    expect(back.status).toBe(200);
    expect(back.json).toMatchObject({ status: 'ok', twoFactorRequired: false });
    const renewed = api.cookieFrom(back, DEVICE)!;
    expect(renewed).not.toBe(home);
    // A mistyped password there is just a wrong password.
    const typo = await attempt(email, WRONG, '203.0.113.10', renewed);
    expect(typo.status).toBe(400);
    expect(typo.json.errorCode).toBe('login_failed');
  }, 120_000); // 110 logins, each an argon2 check: a busy 2-core machine needs longer than 30 s

  it('a forged token, or the token of another account, counts for nothing', async () => {
    const victim = await accounts.activeAccount();
    const attacker = await accounts.activeAccount();
    const own = await logInFrom(attacker.email, attacker.password);
    const victimToken = await logInFrom(victim.email, victim.password);
    await spendAccountWindow(victim.email, 500);

    const [nonce, issued, mac] = victimToken.split('.');
    const flipped = mac!.startsWith('A') ? `B${mac!.slice(1)}` : `A${mac!.slice(1)}`;
    const forged = [
      own, // the attacker's own account's token
      `${nonce}.${issued}.${flipped}`, // a changed signature
      `${'0'.repeat(32)}.${issued}.${mac}`, // another nonce under the victim's signature
      `${nonce}.${(parseInt(issued!, 36) + 1).toString(36)}.${mac}`, // another issue time
      'garbage',
    ];
    for (const token of forged) {
      const answer = await attempt(victim.email, victim.password, '203.0.113.20', token);
      expect([token, answer.status, answer.json.errorCode]).toEqual([token, 429, 'too_many_attempts']);
    }
    // The token the victim's browser really holds still works.
    expect((await attempt(victim.email, victim.password, '203.0.113.20', victimToken)).status).toBe(200);
  });

  it('tells the account by mail once per window, in its language; an unknown address gets the same answer and no mail', async () => {
    const { email, password } = await accounts.activeAccount({ lang: 'de' });
    const subject = 'Jemand versucht, sich bei Ihrem Enclave-Konto anzumelden';
    await spendAccountWindow(email, 99);
    expect((await attempt(email, WRONG)).status).toBe(400);
    await afterAnswerSettled();
    expect(await failedLoginMails(email, subject)).toHaveLength(0);

    for (let i = 0; i < 5; i += 1) expect((await attempt(email, i === 4 ? password : WRONG)).status).toBe(429);
    await afterAnswerSettled();
    expect(await failedLoginMails(email, subject)).toHaveLength(1);

    // Delivered through the real SMTP server.
    while ((await mail.deliverDueMail({ limit: 50 })).sent > 0);
    const received = await smtp.waitFor((m) => m.envelope.to.includes(email) && m.subject === subject);
    expect(received.text).toContain('mehr als 100-mal ein falsches Passwort');
    expect(received.text).toContain('In einem Browser, in dem Sie sich schon einmal angemeldet haben');
    expect(received.text).toContain('Zwei-Faktor-Authentifizierung einschalten');
    expect(received.text).not.toContain(password);
    expect(smtp.messages.filter((m) => m.envelope.to.includes(email) && m.subject === subject)).toHaveLength(1);

    // A new window, a new mail.
    await db
      .update(rateLimits)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(rateLimits.key, `login-account:${email}`));
    await spendAccountWindow(email, 100);
    expect((await attempt(email, WRONG)).status).toBe(429);
    await afterAnswerSettled();
    expect(await failedLoginMails(email, subject)).toHaveLength(2);

    // Nobody has this address: the answer is the same, and nothing is sent.
    const nobody = accounts.uniqueEmail('nobody');
    await spendAccountWindow(nobody, 100);
    const known = await attempt(email, WRONG);
    const unknown = await attempt(nobody, WRONG);
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    await afterAnswerSettled();
    expect(await accounts.mailCount(nobody)).toBe(0);
  });
});

describe("a known browser's own limit", () => {
  it('10 wrong passwords from it, then too_many_attempts there only; the device counts for no one else', async () => {
    const { email, password } = await accounts.activeAccount();
    const token = await logInFrom(email, password);
    const codes: (string | undefined)[] = [];
    // From ever-new addresses: the limit follows the browser, not its address.
    for (let i = 0; i < 11; i += 1) codes.push((await attempt(email, WRONG, `198.19.7.${i + 1}`, token)).json.errorCode);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill('login_failed'));
    expect(codes[10]).toBe('too_many_attempts');
    const blocked = await attempt(email, password, '198.19.7.99', token);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);

    // Its failures did not count against the account: another browser logs in.
    const [windowRow] = await db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `login-account:${email}`));
    expect(windowRow?.points).toBe(1); // the first login only
    expect((await attempt(email, password)).status).toBe(200);

    // Once its window has passed, the browser logs in again.
    await db
      .update(rateLimits)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sql`${rateLimits.key} like 'login-device:%'`);
    expect((await attempt(email, password, '198.19.7.99', token)).status).toBe(200);
  });
});

describe('one browser, several accounts (a shared computer)', () => {
  it('keeps a token per account, the newest five, and each account is known there', async () => {
    const first = await accounts.activeAccount();
    const second = await accounts.activeAccount();
    let jar = await logInFrom(first.email, first.password);
    jar = await logInFrom(second.email, second.password, jar);
    expect(jar.split('~')).toHaveLength(2);
    // Logging in again replaces the account's token rather than adding one.
    jar = await logInFrom(first.email, first.password, jar);
    expect(jar.split('~')).toHaveLength(2);

    await spendAccountWindow(first.email, 500);
    await spendAccountWindow(second.email, 500);
    for (const account of [first, second]) {
      expect((await attempt(account.email, account.password)).status).toBe(429);
      const answer = await attempt(account.email, account.password, undefined, jar);
      expect(answer.status).toBe(200);
      jar = api.cookieFrom(answer, DEVICE)!;
    }

    for (let i = 0; i < 5; i += 1) {
      const other = await accounts.activeAccount();
      jar = await logInFrom(other.email, other.password, jar);
    }
    expect(jar.split('~')).toHaveLength(device.MAX_TOKENS);
    expect(device.deviceIdFor(jar, first.user.id)).toBeNull();
  });

  it('forgets a token a year after it was given', () => {
    const now = Date.now();
    const jar = device.renewDeviceCookie(undefined, 'some-user', now - device.DEVICE_TTL_SECONDS * 1000 + 60_000);
    expect(device.deviceIdFor(jar, 'some-user', now)).toMatch(/^[0-9a-f]{32}$/);
    expect(device.deviceIdFor(jar, 'some-user', now + 120_000)).toBeNull();
    expect(device.deviceIdFor(jar, 'another-user', now)).toBeNull();
  });
});
