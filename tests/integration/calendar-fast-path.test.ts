// The calendar's fast path (issue 17): server/server.mjs answers the compact form through
// calendarFastAnswer before Next.js routes it. It must answer 304 exactly when the route would —
// the same tag, after any write by any path, never for a revoked session or another user — a 200
// with the route's body, gzipped, and hand everything else to Next.js (null). Against the real
// database (PGlite, and PostgreSQL with TEST_DATABASE_URL).
import { gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { closeDb, getDb } from '@/lib/db/client';
import { calendarVersions, eventExceptions, events, rooms, users } from '@/lib/db/schema';
import { sealSession } from '@/lib/auth/session-cookie';
import { acceptsGzip, calendarFastAnswer, sessionCookie } from '@/lib/events/calendar-fast-path';
import { GET as calendar } from '@/app/api/events/calendar/route';
import { POST as createEvent } from '@/app/api/event/route';
import { POST as addRoom } from '@/app/api/room/route';
import { POST as updateRoom } from '@/app/api/room/update/route';
import { GET as logout } from '@/app/logout/route';
import { call, sessionCookies } from '../support/api';
import { owner, type Owner } from '../support/address-book';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const start = DateTime.now().plus({ days: 7 }).startOf('hour');
const window = { start: Math.floor(start.minus({ days: 1 }).toSeconds()), end: Math.floor(start.plus({ days: 30 }).toSeconds()) };
const url = (form = 'compact', w = window) => `/api/events/calendar?start=${w.start}&end=${w.end}&form=${form}`;

/** What the route answers (status and tag) for this cookie and If-None-Match. */
async function route(cookie: string, ifNoneMatch?: string) {
  const answer = await call(calendar, { path: url(), cookies: sessionCookies(cookie), headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {} });
  return { status: answer.status, etag: answer.headers.get('etag') };
}

/** What the fast path answers to a client without gzip: the 304's tag, or null (Next.js answers). */
async function fast(cookie: string | undefined, ifNoneMatch: string | undefined, path = url()) {
  const answer = await calendarFastAnswer({
    url: path,
    cookie: cookie === undefined ? undefined : `theme=dark; enclave_session=${cookie}`,
    ifNoneMatch,
    acceptEncoding: undefined,
  });
  if (answer) expect(answer.status).toBe(304);
  return answer?.headers.ETag ?? null;
}

async function withSeries(): Promise<{ as: Owner; roomId: string; eventId: string; tag: string }> {
  const as = await owner();
  const roomId = ((await as.post(addRoom, { name: 'Fast room' })).json.room as { id: string }).id;
  const created = await as.post(createEvent, {
    title: 'Daily',
    from: Math.floor(start.toSeconds()),
    duration: '0:30',
    timezone: 'Europe/Berlin',
    repeatType: 'daily',
    roomId,
  });
  expect(created.status).toBe(200);
  const { status, etag } = await route(as.cookie);
  expect(status).toBe(200);
  return { as, roomId, eventId: (created.json.event as { id: string }).id, tag: etag! };
}

describe('calendarFastAnswer answers what the route would answer, or leaves it to Next.js', () => {
  it('the route’s tag and headers for a matching compact revalidation', async () => {
    const { as, tag } = await withSeries();
    expect(await route(as.cookie, tag)).toEqual({ status: 304, etag: tag });
    const answer = await calendarFastAnswer({ url: url(), cookie: `enclave_session=${as.cookie}`, ifNoneMatch: tag, acceptEncoding: 'gzip, deflate, br' });
    expect([answer?.status, answer?.body]).toEqual([304, undefined]);
    const headers = answer!.headers;
    expect(headers).toMatchObject({
      ETag: tag,
      'Cache-Control': 'private, no-cache',
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
    });
    expect(headers!.Vary).toContain('Accept-Encoding');
    for (const header of [tag.replace(/^W\//, ''), `"other", ${tag}`, '*']) expect(await fast(as.cookie, header)).toBe(tag);
  });

  it('hands to Next.js: another tag, no If-None-Match, the full form, a bad window, no or a forged cookie, the cookie twice', async () => {
    const { as, tag } = await withSeries();
    expect(await fast(as.cookie, 'W/"not-this-one"')).toBeNull();
    expect(await fast(as.cookie, undefined)).toBeNull();
    expect(await fast(as.cookie, '*', url('full'))).toBeNull();
    expect(await fast(as.cookie, tag, `/api/events/calendar?start=${window.start}&end=${window.start}&form=compact`)).toBeNull();
    expect(await fast(as.cookie, tag, `/api/events/calendar?start=${window.start}&end=${window.end}`)).toBeNull();
    expect(await fast(undefined, tag)).toBeNull();
    expect(await fast(`${as.cookie.slice(0, -4)}AAAA`, tag)).toBeNull();
    expect(
      await calendarFastAnswer({ url: url(), cookie: `enclave_session=${as.cookie}; enclave_session=${as.cookie}`, ifNoneMatch: tag, acceptEncoding: 'gzip' }),
    ).toBeNull();
    expect(await fast(as.cookie, tag)).toBe(tag);
  });

  it('a 200 to a client that accepts gzip: the route’s body and tag, gzipped; without gzip, Next.js answers', async () => {
    const { as, tag } = await withSeries();
    const routed = await call(calendar, { path: url(), cookies: sessionCookies(as.cookie) });
    const ask = (acceptEncoding: string | undefined, ifNoneMatch?: string) =>
      calendarFastAnswer({ url: url(), cookie: `enclave_session=${as.cookie}`, ifNoneMatch, acceptEncoding });
    for (const stale of [undefined, 'W/"an-old-tag"']) {
      const answer = (await ask('gzip, deflate, br', stale))!;
      expect(answer.status).toBe(200);
      expect(answer.headers).toMatchObject({ ETag: tag, 'Content-Encoding': 'gzip', 'Content-Type': 'application/json', 'Cache-Control': 'private, no-cache' });
      expect(answer.headers['Content-Length']).toBe(String(answer.body!.length));
      expect(gunzipSync(answer.body!).toString()).toBe(routed.text);
    }
    expect(await ask(undefined)).toBeNull();
    expect(await ask('br, gzip;q=0')).toBeNull();
    expect((await ask('gzip;q=0', tag))?.status).toBe(304);
    const stranger = await calendarFastAnswer({ url: url(), cookie: undefined, ifNoneMatch: undefined, acceptEncoding: 'gzip' });
    expect(stranger).toBeNull();
  });

  it('reads Accept-Encoding as RFC 9110 has it', () => {
    expect(['gzip', 'GZIP', 'br;q=1.0, gzip;q=0.5', 'deflate, gzip'].map(acceptsGzip)).toEqual([true, true, true, true]);
    expect(['', 'br', 'gzip;q=0', 'gzip; q=0.000', 'x-gzip2', undefined].map(acceptsGzip)).toEqual([false, false, false, false, false, false]);
  });

  it('reads the session cookie as Next.js does', () => {
    expect(sessionCookie('a=1; enclave_session=Fe26.2*1*x~2;b=2')).toBe('Fe26.2*1*x~2');
    expect(sessionCookie('enclave_session=a%2Ab')).toBe('a*b');
    expect(sessionCookie('xenclave_session=1; enclave_sessionx=2')).toBeUndefined();
    expect(sessionCookie('enclave_session=%E2%82')).toBeUndefined();
    expect(sessionCookie(undefined)).toBeUndefined();
  });
});

describe('after a write, the old tag is not answered 304 by either path', () => {
  const writes: [string, (w: Awaited<ReturnType<typeof withSeries>>) => Promise<unknown>][] = [
    ['a room renamed through the API', ({ as, roomId }) => as.post(updateRoom, { id: roomId, name: 'Renamed' })],
    [
      'an event written with SQL (another instance, an administrator)',
      async ({ eventId }) => (await getDb()).update(events).set({ title: 'By SQL' }).where(eq(events.id, eventId)),
    ],
    [
      'an exception inserted with SQL',
      async ({ eventId }) => (await getDb()).insert(eventExceptions).values({ eventId, originalStart: start.plus({ days: 1 }).toJSDate(), cancelled: true }),
    ],
    ['a room recoloured with SQL', async ({ roomId }) => (await getDb()).update(rooms).set({ color: 5 }).where(eq(rooms.id, roomId))],
    ['the event deleted with SQL', async ({ eventId }) => (await getDb()).delete(events).where(eq(events.id, eventId))],
  ];
  it.each(writes)('%s', async (_what, write) => {
    const before = await withSeries();
    expect(await fast(before.as.cookie, before.tag)).toBe(before.tag);
    await write(before);
    expect(await fast(before.as.cookie, before.tag)).toBeNull();
    const after = await route(before.as.cookie, before.tag);
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(before.tag);
    expect(await fast(before.as.cookie, after.etag!)).toBe(after.etag);
  });

  it('a write refused by the database changes nothing, and another user’s write changes nothing', async () => {
    const mine = await withSeries();
    const theirs = await withSeries();
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        await tx.update(events).set({ title: 'Rolled back' }).where(eq(events.id, mine.eventId));
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await db.update(events).set({ title: 'Theirs' }).where(eq(events.id, theirs.eventId));
    expect(await fast(mine.as.cookie, mine.tag)).toBe(mine.tag);
  });

  it('deleting a user with a calendar works (the triggers do not bring their version back)', async () => {
    const { as } = await withSeries();
    const db = await getDb();
    await db.delete(users).where(eq(users.id, as.user.id));
    expect(await db.select().from(calendarVersions).where(eq(calendarVersions.userId, as.user.id))).toEqual([]);
    expect(await fast(as.cookie, '*')).toBeNull();
  });
});

describe('the session is checked on every request, cached unsealing or not', () => {
  it('a cookie logged out after it was verified (and cached) is refused by both paths', async () => {
    const { as, tag } = await withSeries();
    expect(await fast(as.cookie, tag)).toBe(tag);
    const out = await call(logout, { path: '/logout', cookies: sessionCookies(as.cookie), headers: { 'sec-fetch-site': 'same-origin' } });
    expect(out.status).toBe(303);
    expect(await fast(as.cookie, tag)).toBeNull();
    expect((await route(as.cookie, tag)).status).toBe(401);
  });

  it('a raised session version or a disabled account ends a cached cookie', async () => {
    const db = await getDb();
    for (const change of [{ sessionVersion: sql`${users.sessionVersion} + 1` }, { state: 'disabled' as const }]) {
      const { as, tag } = await withSeries();
      expect(await fast(as.cookie, tag)).toBe(tag);
      await db.update(users).set(change).where(eq(users.id, as.user.id));
      expect(await fast(as.cookie, tag)).toBeNull();
      expect((await route(as.cookie, tag)).status).toBe(401);
    }
  });

  it('another user’s cookie never gets this user’s 304, and a second cookie of the same user does', async () => {
    const alice = await withSeries();
    const bob = await withSeries();
    expect(await fast(bob.as.cookie, alice.tag)).toBeNull();
    expect((await route(bob.as.cookie, alice.tag)).status).toBe(200);
    const phone = await sealSession({ userId: alice.as.user.id, version: alice.as.user.sessionVersion, role: alice.as.user.role });
    expect(await fast(phone, alice.tag)).toBe(alice.tag);
  });
});
