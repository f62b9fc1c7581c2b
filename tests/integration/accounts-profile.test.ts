// An account after sign-up: GET/POST /api/me, activation links, the activation mail again and meeting cards.
import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { POST as register } from '@/app/register/route';
import { GET as activate } from '@/app/invitation/activate/route';
import { GET as me } from '@/app/api/me/route';
import { call, cookieFrom, sessionCookies } from '../support/api';
import { STRONG_PASSWORD, activeAccount, fromIp, lastMailTo, logInAs, mailCount, registration, uniqueEmail, userByEmail } from '../support/accounts';

// The database opens here, not in the first test: an embedded one can take longer than a test's
// 30 s to start on a busy machine (as in billing.test.ts).
beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

describe('GET/POST /api/me', () => {
  const { POST: updateMe } = jest.requireActual('@/app/api/me/route') as typeof import('@/app/api/me/route');

  it('needs a session', async () => {
    expect((await call(me)).status).toBe(401);
  });

  it.each([
    {
      name: 'a new password without the current one',
      body: { newPassword1: 'Green-Valley-77' },
      code: 'fill_old_password',
    },
    {
      name: 'a wrong current password',
      body: { oldPassword: 'Nope-Nope-12', newPassword1: 'Green-Valley-77' },
      code: 'invalid_old_password',
    },
    {
      name: 'a weak new password',
      body: { oldPassword: STRONG_PASSWORD, newPassword1: 'weakweak' },
      code: 'low_complexity',
    },
    { name: 'an invalid e-mail', body: { email: 'nope' }, code: 'format_email' },
    {
      name: 'a new e-mail without the password',
      body: { email: 'fresh@example.test' },
      code: 'fill_old_password',
    },
    { name: 'an unknown time zone', body: { timezone: 'Mars/Base' }, code: 'incorrect_data' },
    { name: 'a one-letter first name', body: { firstName: 'X' }, code: 'min_first_name' },
    { name: 'an unknown language', body: { lang: 'xx' }, code: 'incorrect_data' },
  ])('$name → $code and nothing changes', async ({ body, code }) => {
    const { email, password, user } = await activeAccount();
    const { cookie } = await logInAs(email, password);
    const answer = await call(updateMe, { body, cookies: sessionCookies(cookie!) });
    expect(answer.json.errorCode).toBe(code);
    const after = await userByEmail(email);
    expect({ ...after, updatedAt: null }).toEqual({ ...user, updatedAt: null });
  });

  it('saves settings; UTC is stored as Europe/London', async () => {
    const { email, password } = await activeAccount();
    const { cookie } = await logInAs(email, password);
    const body = {
      timezone: 'UTC',
      tooltips: false,
      preferredRegion: 'na',
      lang: 'sk',
      theme: 'blue',
    };
    expect((await call(updateMe, { body, cookies: sessionCookies(cookie!) })).json.status).toBe('ok');
    expect(await userByEmail(email)).toMatchObject({
      timezone: 'Europe/London',
      tooltips: false,
      preferredRegion: 'na',
      lang: 'sk',
      theme: 'blue',
    });
  });

  it('a password change keeps this session and ends the others', async () => {
    const { email, password } = await activeAccount();
    const mine = (await logInAs(email, password)).cookie!;
    const other = (await logInAs(email, password)).cookie!;
    const answer = await call(updateMe, {
      body: { oldPassword: password, newPassword1: 'Green-Valley-77' },
      cookies: sessionCookies(mine),
    });
    const renewed = cookieFrom(answer, 'enclave_session')!;
    expect((await call(me, { cookies: sessionCookies(renewed) })).status).toBe(200);
    expect((await call(me, { cookies: sessionCookies(other) })).status).toBe(401);
  });

  it('an e-mail change refuses a taken address and otherwise waits for the link mailed to the new one', async () => {
    const { email, password } = await activeAccount();
    const taken = (await activeAccount()).email;
    const { cookie } = await logInAs(email, password);
    const clash = await call(updateMe, {
      body: { email: taken, oldPassword: password },
      cookies: sessionCookies(cookie!),
    });
    expect(clash.json.errorCode).toBe('email_exists');
    const fresh = uniqueEmail('moved');
    const moved = await call(updateMe, {
      body: { email: fresh, oldPassword: password },
      cookies: sessionCookies(cookie!),
    });
    // The change and its confirmation: tests/integration/email-change.test.ts.
    expect(moved.json).toEqual({ status: 'ok', errorCode: 'success', emailPending: fresh });
    expect((await userByEmail(email)).email).toBe(email);
    expect((await lastMailTo(fresh)).link).toContain('/invitation/confirm-email?token=');
  });

  it('a meeting-card account asks for a new e-mail and changes its password without a current password', async () => {
    const { email, password, user } = await activeAccount();
    const db = await getDb();
    await db.update(users).set({ enableMCard: true }).where(eq(users.id, user.id));
    const { cookie } = await logInAs(email, password);
    const fresh = uniqueEmail('card');
    const answer = await call(updateMe, {
      body: { email: fresh, phone: '+421 900 123 456', newPassword1: 'Green-Valley-77' },
      cookies: sessionCookies(cookie!),
    });
    expect(answer.json).toMatchObject({ status: 'ok', emailPending: fresh });
    expect(await userByEmail(email)).toMatchObject({ phone: '+421 900 123 456' });
    expect((await lastMailTo(fresh)).link).toContain('/invitation/confirm-email?token=');
  });
});

describe('activation links', () => {
  it('every activation mail works until one is used; then all are spent', async () => {
    const body = registration();
    await call(register, { body, headers: fromIp() });
    const first = new URL((await lastMailTo(body.email)).link!);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await logInAs(body.email, body.password as string); // re-sends a second mail
    const second = new URL((await lastMailTo(body.email)).link!);
    expect(second.search).not.toBe(first.search);
    const used = await call(activate, { path: first.pathname + first.search, headers: fromIp() });
    expect(used.headers.get('location')).toMatch(/status=activated$/);
    const spent = await call(activate, {
      path: second.pathname + second.search,
      headers: fromIp(),
    });
    expect(spent.headers.get('location')).toMatch(/status=invalid$/);
  });
});

describe('POST /invitation: the activation mail again', () => {
  const { POST: resend } = jest.requireActual('@/app/invitation/route') as typeof import('@/app/invitation/route');

  it('re-sends to an unverified account and answers alike for anyone else', async () => {
    const body = registration();
    await call(register, { body, headers: fromIp() });
    const before = await mailCount(body.email);
    const waiting = await call(resend, { body: { email: body.email }, headers: fromIp() });
    const active = (await activeAccount()).email;
    const activeBefore = await mailCount(active);
    const done = await call(resend, { body: { email: active }, headers: fromIp() });
    const unknown = await call(resend, { body: { email: uniqueEmail('none') }, headers: fromIp() });
    expect(waiting.text).toBe(done.text);
    expect(done.text).toBe(unknown.text);
    expect(await mailCount(body.email)).toBe(before + 1);
    expect(await mailCount(active)).toBe(activeBefore);
  });
});

describe('meeting cards: POST /vip and POST /vip/activate', () => {
  const { POST: requestLink } = jest.requireActual('@/app/vip/route') as typeof import('@/app/vip/route');
  const { POST: cardLogin } = jest.requireActual('@/app/vip/activate/route') as typeof import('@/app/vip/activate/route');

  async function cardHolder() {
    const account = await activeAccount();
    const db = await getDb();
    await db.update(users).set({ enableMCard: true }).where(eq(users.id, account.user.id));
    return account;
  }

  it('mails a one-time link whose code sits in the fragment, and it logs in once', async () => {
    const { email } = await cardHolder();
    const answer = await call(requestLink, { body: { email }, headers: fromIp() });
    expect(answer.json).toEqual({ status: 'ok', errorCode: 'email_sent' });
    const link = (await lastMailTo(email)).link!;
    expect(link).toMatch(/^http:\/\/localhost:3000\/login#card=[\w-]{43}$/);
    const code = link.split('#card=')[1]!;
    const first = await call(cardLogin, { body: { code }, headers: fromIp() });
    expect(first.json).toMatchObject({ status: 'ok', twoFactorRequired: false });
    const session = cookieFrom(first, 'enclave_session')!;
    expect((await call(me, { cookies: sessionCookies(session) })).json).toMatchObject({
      email,
      enableMCard: true,
    });
    const again = await call(cardLogin, { body: { code }, headers: fromIp() });
    expect(again.status).toBe(404);
    expect(again.json.errorCode).toBe('invite_not_found');
  });

  it('answers alike for accounts without a card, and sends them nothing', async () => {
    const { email } = await activeAccount();
    const holder = await cardHolder();
    const before = await mailCount(email);
    const plain = await call(requestLink, { body: { email }, headers: fromIp() });
    const card = await call(requestLink, { body: { email: holder.email }, headers: fromIp() });
    expect(plain.text).toBe(card.text);
    expect(await mailCount(email)).toBe(before);
  });

  it('a forged or short code is refused', async () => {
    expect((await call(cardLogin, { body: { code: 'x'.repeat(43) }, headers: fromIp() })).json.errorCode).toBe('invite_not_found');
    expect((await call(cardLogin, { body: { code: 'short' }, headers: fromIp() })).json.errorCode).toBe('invite_not_found');
  });
});
