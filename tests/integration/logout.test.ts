import { eq } from 'drizzle-orm';
import { sealData } from 'iron-session';
import { getSessionSecret } from '@/lib/environment';
import { closeDb, getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { sealSession } from '@/lib/auth/session-cookie';
import { GET as me } from '@/app/api/me/route';
import { GET as logout } from '@/app/logout/route';
import { call, cookieFrom, createUser, sessionCookies } from '../support/api';

afterAll(() => closeDb());

// Issue 16, item 3: logging out ends the session on the server, and only its owner's own site can.
const sameOrigin = { 'sec-fetch-site': 'same-origin' };

describe('GET /logout ends the session on the server', () => {
  it('a copy of the cookie kept from before the logout answers 401 afterwards', async () => {
    const { cookie } = await createUser();
    expect((await call(me, { cookies: sessionCookies(cookie) })).status).toBe(200);

    const answer = await call(logout, { path: '/logout', cookies: sessionCookies(cookie), headers: sameOrigin });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toMatch(/\/login$/);
    expect(cookieFrom(answer, 'enclave_session')).toBe('');
    // What the browser kept (the calendar's revalidated answers) goes too.
    expect(answer.headers.get('clear-site-data')).toBe('"cache"');

    const replayed = await call(me, { cookies: sessionCookies(cookie) });
    expect(replayed.status).toBe(401);
    expect(replayed.json.errorCode).toBe('authentication_error');
  });

  it('ends only this cookie: the same account logged in elsewhere stays logged in', async () => {
    const { user, cookie: laptop } = await createUser();
    const phone = await sealSession({ userId: user.id, version: user.sessionVersion, role: user.role });
    await call(logout, { path: '/logout', cookies: sessionCookies(laptop), headers: sameOrigin });
    expect((await call(me, { cookies: sessionCookies(laptop) })).status).toBe(401);
    expect((await call(me, { cookies: sessionCookies(phone) })).status).toBe(200);
  });

  it('a typed-in address (Sec-Fetch-Site: none) or a browser without fetch metadata logs out too', async () => {
    for (const headers of [{ 'sec-fetch-site': 'none' }, {}] as Record<string, string>[]) {
      const { cookie } = await createUser();
      await call(logout, { path: '/logout', cookies: sessionCookies(cookie), headers });
      expect((await call(me, { cookies: sessionCookies(cookie) })).status).toBe(401);
    }
  });

  it('a cookie from before session ids ends by raising the session version', async () => {
    const { user } = await createUser();
    const legacy = await sealData({ userId: user.id, version: user.sessionVersion, role: user.role }, { password: getSessionSecret(), ttl: 3600 });
    expect((await call(me, { cookies: sessionCookies(legacy) })).status).toBe(200);
    await call(logout, { path: '/logout', cookies: sessionCookies(legacy), headers: sameOrigin });
    expect((await call(me, { cookies: sessionCookies(legacy) })).status).toBe(401);
    const [row] = await (await getDb()).select().from(users).where(eq(users.id, user.id));
    expect(row!.sessionVersion).toBe(user.sessionVersion + 1);
  });
});

describe('another site cannot log a person out (logout CSRF)', () => {
  it.each(['cross-site', 'same-site'])('Sec-Fetch-Site: %s → back to Home, the session still counts', async (site) => {
    const { cookie } = await createUser();
    const answer = await call(logout, { path: '/logout', cookies: sessionCookies(cookie), headers: { 'sec-fetch-site': site } });
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.get('location')!).pathname).toBe('/');
    expect(cookieFrom(answer, 'enclave_session')).toBeUndefined();
    expect(answer.headers.get('clear-site-data')).toBeNull();
    expect((await call(me, { cookies: sessionCookies(cookie) })).status).toBe(200);
  });

  it('a cookie that no longer counts is cleared even from another site, so no redirect loops', async () => {
    const { cookie } = await createUser();
    await call(logout, { path: '/logout', cookies: sessionCookies(cookie), headers: sameOrigin });
    const answer = await call(logout, { path: '/logout', cookies: sessionCookies(cookie), headers: { 'sec-fetch-site': 'cross-site' } });
    expect(answer.headers.get('location')).toMatch(/\/login$/);
    expect(cookieFrom(answer, 'enclave_session')).toBe('');
  });
});
