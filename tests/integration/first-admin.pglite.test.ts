// Issue 48, point 5: the first admin without a shell or a stop, through a one-time setup link
// written to the log while the server has no admin.
// Embedded database only (*.pglite.test.ts): it takes the admin role from every account of the
// database, which would disturb test files sharing a PostgreSQL database.
import { eq } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { auditLog, users } from '@/lib/db/schema';
import { announceSetupLinks, forgetSetupLink, issueSetupLink } from '@/lib/admin/first-admin';
import { POST as claim } from '@/app/api/first-admin/route';
import { GET as me } from '@/app/api/me/route';
import { call, cookieFrom, createUser, sessionCookies } from '../support/api';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

/** No admin on this server (PGlite: this file's own database). */
async function noAdmins() {
  const db = await getDb();
  await db.update(users).set({ role: 'user' }).where(eq(users.role, 'admin'));
  forgetSetupLink();
}

const tokenOf = (link: string) => new URL(link).hash.slice(1);

describe('the first-admin setup link', () => {
  beforeEach(noAdmins);

  it('is written to the log at start while there is no admin, with the token in the fragment only', async () => {
    const lines: string[] = [];
    const spy = jest.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    const stop = announceSetupLinks();
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      stop();
      spy.mockRestore();
    }
    const logged = lines.map((line) => JSON.parse(line) as { setupLink?: string }).find((line) => line.setupLink);
    expect(logged?.setupLink).toMatch(/^http:\/\/localhost:3000\/first-admin#[A-Za-z0-9_-]{43}$/);
  });

  it('makes the logged-in person the admin, once; their session goes on with the new role, and the audit log says so', async () => {
    const link = (await issueSetupLink())!;
    const person = await createUser();
    const answer = await call(claim, {
      body: { token: tokenOf(link) },
      cookies: sessionCookies(person.cookie),
    });
    expect(answer.json).toEqual({ status: 'ok' });
    const fresh = cookieFrom(answer, 'enclave_session')!;
    expect((await call(me, { cookies: sessionCookies(fresh) })).json.role).toBe('admin');
    const db = await getDb();
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetUserId, person.user.id));
    expect(entry).toMatchObject({
      action: 'grant_admin',
      actor: person.user.email,
      details: { from: 'user', to: 'admin', via: 'setup_link' },
    });

    // Single use, and no second admin through it.
    const other = await createUser();
    const again = await call(claim, {
      body: { token: tokenOf(link) },
      cookies: sessionCookies(other.cookie),
    });
    expect([again.status, again.json.errorCode]).toEqual([400, 'incorrect_data']);
    const [row] = await db.select().from(users).where(eq(users.id, other.user.id));
    expect(row!.role).toBe('user');
  });

  it('is refused without a login, with a wrong or stale token, and once an admin exists', async () => {
    const link = (await issueSetupLink())!;
    const person = await createUser();
    expect((await call(claim, { body: { token: tokenOf(link) } })).status).toBe(401);
    for (const token of ['', 'x'.repeat(43), tokenOf(link).slice(0, -1) + (tokenOf(link).endsWith('A') ? 'B' : 'A')]) {
      const refused = await call(claim, {
        body: { token },
        cookies: sessionCookies(person.cookie),
      });
      expect([token, refused.status, refused.json.errorCode]).toEqual([token, 400, token ? 'incorrect_data' : 'missing_data']);
    }
    // A newer link replaces the older one.
    const newer = (await issueSetupLink())!;
    expect(
      (
        await call(claim, {
          body: { token: tokenOf(link) },
          cookies: sessionCookies(person.cookie),
        })
      ).status,
    ).toBe(400);
    // An admin made meanwhile (the CLI): the link no longer works, and none is issued.
    await createUser({ role: 'admin' });
    expect(
      (
        await call(claim, {
          body: { token: tokenOf(newer) },
          cookies: sessionCookies(person.cookie),
        })
      ).json.errorCode,
    ).toBe('incorrect_data');
    expect(await issueSetupLink()).toBeNull();
  });

  it('expires', async () => {
    const link = (await issueSetupLink(Date.now() - 25 * 3_600_000))!;
    const person = await createUser();
    expect(
      (
        await call(claim, {
          body: { token: tokenOf(link) },
          cookies: sessionCookies(person.cookie),
        })
      ).status,
    ).toBe(400);
  });
});
