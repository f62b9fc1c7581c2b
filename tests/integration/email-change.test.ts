// Issue: a new e-mail through POST /api/me waits for the link mailed to it (lib/account/email-change.ts).
import { and, eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { tokens, users } from '@/lib/db/schema';
import { GET as confirm } from '@/app/invitation/confirm-email/route';
import { GET as me } from '@/app/api/me/route';
import { call, sessionCookies } from '../support/api';
import { activeAccount, fromIp, lastMailTo, logInAs, mailCount, uniqueEmail, userByEmail } from '../support/accounts';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const { POST: updateMe } = jest.requireActual('@/app/api/me/route') as typeof import('@/app/api/me/route');

/** An account that asked for a new address: its session, the address and the mailed link. */
async function pendingChange() {
  const account = await activeAccount();
  const { cookie } = await logInAs(account.email, account.password);
  const fresh = uniqueEmail('new');
  const answer = await call(updateMe, { body: { email: fresh, oldPassword: account.password }, cookies: sessionCookies(cookie!) });
  expect(answer.json).toEqual({ status: 'ok', errorCode: 'success', emailPending: fresh });
  const link = new URL((await lastMailTo(fresh)).link!);
  return { ...account, cookie: cookie!, fresh, link };
}

const open = async (link: URL) => {
  const answer = await call(confirm, { path: link.pathname + link.search, headers: fromIp() });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location')!).searchParams.get('status');
};

describe('an e-mail change waits for its confirmation link', () => {
  it('changes nothing and tells the old address nothing before the link is opened', async () => {
    const { email, user, fresh, link, cookie } = await pendingChange();
    const before = await mailCount(email);
    expect(await userByEmail(email)).toMatchObject({ id: user.id, email, sessionVersion: user.sessionVersion });
    expect(await mailCount(fresh)).toBe(1);
    expect(link.pathname).toBe('/invitation/confirm-email');
    // The session goes on, and GET /api/me still answers the old address.
    expect((await call(me, { cookies: sessionCookies(cookie) })).json.email).toBe(email);
    expect(await mailCount(email)).toBe(before);
  });

  it('the mailed link changes the address, tells the old one, ends the sessions; a second use fails', async () => {
    const { email, password, user, fresh, link, cookie } = await pendingChange();
    const before = await mailCount(email);
    expect(await open(link)).toBe('confirmed');
    const after = await userByEmail(fresh);
    expect(after).toMatchObject({ id: user.id, sessionVersion: user.sessionVersion + 1 });
    expect(await mailCount(email)).toBe(before + 1);
    expect((await lastMailTo(email)).mail?.text).toContain(fresh);
    expect((await call(me, { cookies: sessionCookies(cookie) })).status).toBe(401);
    expect((await logInAs(fresh, password)).cookie).toBeDefined();
    expect(await open(link)).toBe('invalid_reset_link');
    expect(await mailCount(email)).toBe(before + 1);
  });

  it('an expired link fails and changes nothing', async () => {
    const { email, user, link } = await pendingChange();
    const db = await getDb();
    await db
      .update(tokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(tokens.userId, user.id), eq(tokens.kind, 'email_change')));
    expect(await open(link)).toBe('invalid_reset_link');
    expect((await userByEmail(email)).id).toBe(user.id);
  });

  it('a newer request voids the older link', async () => {
    const { user, password, cookie, link: older } = await pendingChange();
    const newest = uniqueEmail('newest');
    await call(updateMe, { body: { email: newest, oldPassword: password }, cookies: sessionCookies(cookie) });
    expect(await open(older)).toBe('invalid_reset_link');
    expect(await open(new URL((await lastMailTo(newest)).link!))).toBe('confirmed');
    expect((await userByEmail(newest)).id).toBe(user.id);
  });

  it('an address taken before the link is opened fails with email_exists', async () => {
    const { email, user, fresh, link } = await pendingChange();
    const db = await getDb();
    const other = await activeAccount();
    await db.update(users).set({ email: fresh }).where(eq(users.email, other.email));
    expect(await open(link)).toBe('email_exists');
    expect((await userByEmail(email)).id).toBe(user.id);
    expect((await userByEmail(fresh)).id).not.toBe(user.id);
  });

  it('a wrong current password still refuses and sends no link', async () => {
    const { email, password } = await activeAccount();
    const { cookie } = await logInAs(email, password);
    const fresh = uniqueEmail('refused');
    const answer = await call(updateMe, { body: { email: fresh, oldPassword: `${password}x` }, cookies: sessionCookies(cookie!) });
    expect(answer.json.errorCode).toBe('invalid_old_password');
    expect(await mailCount(fresh)).toBe(0);
    expect((await userByEmail(email)).email).toBe(email);
  });

  it('a link that is no token fails', async () => {
    expect(await open(new URL('http://localhost:3000/invitation/confirm-email?token=not-a-real-token-at-all'))).toBe('invalid_reset_link');
    expect(await open(new URL('http://localhost:3000/invitation/confirm-email'))).toBe('invalid_reset_link');
  });
});
