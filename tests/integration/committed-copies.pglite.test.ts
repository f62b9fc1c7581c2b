// Rows kept in memory on the embedded database (issue 17, lib/db/change-feed.ts): a session's
// user row and a calendar's version are answered from a copy until their rows change, and every
// change — by the app's code, by raw SQL, inside a transaction, by TRUNCATE — is seen by the very
// next read. PGlite only (it truncates tables, and PostgreSQL has no feed):
// change-notifications.postgres.test.ts covers PostgreSQL.
import { eq, sql } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { changeFeedOf } from '@/lib/db/change-feed';
import { calendarVersions, events, revokedSessions, rooms, users } from '@/lib/db/schema';
import { userForSession } from '@/lib/auth/session';
import { calendarVersion } from '@/lib/events/calendar-version';
import { createUser } from '../support/api';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

async function sessionOf(overrides: Parameters<typeof createUser>[0] = {}) {
  const { user } = await createUser(overrides);
  const session = { userId: user.id, version: user.sessionVersion, role: user.role, sid: crypto.randomUUID() };
  return { user, session };
}

it('the embedded database has a change feed', async () => {
  expect(changeFeedOf(await getDb())).toBeDefined();
});

describe('a session’s user row', () => {
  it('is read again after every change to the user, however it was written', async () => {
    const db = await getDb();
    const { user, session } = await sessionOf();
    expect((await userForSession(session))?.firstName).toBe('Test');

    await db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, user.id));
    expect((await userForSession(session))?.firstName).toBe('Renamed');

    await db.execute(sql`update users set first_name = 'By hand' where id = ${user.id}`);
    expect((await userForSession(session))?.firstName).toBe('By hand');

    await db.transaction(async (tx) => {
      await tx.update(users).set({ state: 'disabled' }).where(eq(users.id, user.id));
      // Inside the transaction the change is not committed: a request outside still sees it active.
    });
    expect(await userForSession(session)).toBeNull();

    await db.update(users).set({ state: 'active' }).where(eq(users.id, user.id));
    expect(await userForSession(session)).not.toBeNull();

    await db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, user.id));
    expect(await userForSession(session)).toBeNull();
  });

  it('a rolled-back change is not seen, and the copy stays right', async () => {
    const db = await getDb();
    const { user, session } = await sessionOf();
    await userForSession(session);
    await db
      .transaction(async (tx) => {
        await tx.update(users).set({ firstName: 'Never' }).where(eq(users.id, user.id));
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await userForSession(session))?.firstName).toBe('Test');
  });

  it('a logged-out session is refused at once, another session of the same user is not', async () => {
    const db = await getDb();
    const { user, session } = await sessionOf();
    const other = { ...session, sid: crypto.randomUUID() };
    expect(await userForSession(session)).not.toBeNull();
    expect(await userForSession(other)).not.toBeNull();
    await db.insert(revokedSessions).values({ sid: session.sid, expiresAt: new Date(Date.now() + 3_600_000) });
    expect(await userForSession(session)).toBeNull();
    expect((await userForSession(other))?.id).toBe(user.id);
    // Its revocation row gone (expired and swept): the cookie counts again, as without copies.
    await db.delete(revokedSessions).where(eq(revokedSessions.sid, session.sid));
    expect(await userForSession(session)).not.toBeNull();
    await db.execute(sql`truncate revoked_sessions`);
    await db.insert(revokedSessions).values({ sid: other.sid, expiresAt: new Date(Date.now() + 3_600_000) });
    expect(await userForSession(other)).toBeNull();
  });

  it('a deleted user’s session is refused at once', async () => {
    const db = await getDb();
    const { user, session } = await sessionOf();
    expect(await userForSession(session)).not.toBeNull();
    await db.delete(users).where(eq(users.id, user.id));
    expect(await userForSession(session)).toBeNull();
  });

  it('each caller gets its own object', async () => {
    const { session } = await sessionOf();
    const first = await userForSession(session);
    first!.firstName = 'Changed by a caller';
    expect((await userForSession(session))?.firstName).toBe('Test');
  });
});

describe('a calendar’s version', () => {
  it('changes with every write the calendar shows, and is gone with the user', async () => {
    const db = await getDb();
    const { user } = await sessionOf();
    const first = await calendarVersion(db, user.id);
    expect(await calendarVersion(db, user.id)).toBe(first);

    const [room] = await db
      .insert(rooms)
      .values({ ownerId: user.id, name: 'Copies', color: 3, meetingId: `copies-${user.id}` })
      .returning();
    const afterRoom = await calendarVersion(db, user.id);
    expect(afterRoom).not.toBe(first);

    await db.execute(sql`update rooms set name = 'By hand' where id = ${room!.id}`);
    const afterRename = await calendarVersion(db, user.id);
    expect(afterRename).not.toBe(afterRoom);

    await db.execute(sql`update calendar_versions set version = version + 1 where user_id = ${user.id}`);
    expect(await calendarVersion(db, user.id)).not.toBe(afterRename);

    await db.delete(users).where(eq(users.id, user.id));
    expect(await calendarVersion(db, user.id)).toBeNull();
  });

  it('a TRUNCATE of the versions is seen', async () => {
    const db = await getDb();
    const { user } = await sessionOf();
    await db.insert(rooms).values({ ownerId: user.id, name: 'T', color: 4, meetingId: `truncate-${user.id}` });
    expect(await calendarVersion(db, user.id)).not.toBe('0');
    await db.execute(sql`truncate calendar_versions`);
    expect(await calendarVersion(db, user.id)).toBe('0');
    expect(await db.select().from(calendarVersions).where(eq(calendarVersions.userId, user.id))).toEqual([]);
    expect(await db.select().from(events).where(eq(events.ownerId, user.id))).toEqual([]);
  });
});
