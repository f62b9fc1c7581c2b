// GET /api/events/calendar under load (issue 17): the compact form expands to exactly the full
// form, the ETag follows every change of what the calendar shows (and nothing else), 304 on a
// matching If-None-Match, and one user's cached answer is never another's. Route handlers against
// the real database (PGlite, and PostgreSQL with TEST_DATABASE_URL).
import { eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { closeDb, getDb } from '@/lib/db/client';
import { eventExceptions, events, rooms } from '@/lib/db/schema';
import { expandCompact, isCompactCalendar, type CalendarOccurrence, type CompactCalendar } from '@/lib/calendar/compact';
import { calendarAnswer, calendarCacheSize, clearCalendarCache } from '@/lib/events/calendar-answer';
import { buildRRule } from '@/lib/recurrence/build-rule';
import { seriesEnd } from '@/lib/recurrence/expand';
import { GET as calendar } from '@/app/api/events/calendar/route';
import { GET as listEvents } from '@/app/api/events/route';
import { GET as upcoming } from '@/app/api/events/upcoming/route';
import { POST as createEvent } from '@/app/api/event/route';
import { POST as updateEvent } from '@/app/api/event/update/route';
import { DELETE as deleteEvent } from '@/app/api/event/[id]/route';
import { POST as addRoom } from '@/app/api/room/route';
import { POST as updateRoom } from '@/app/api/room/update/route';
import { POST as addContact } from '@/app/api/attendee/route';
import { call, sessionCookies, type Answer } from '../support/api';
import { contactBody, owner, type Owner } from '../support/address-book';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const unix = (dt: DateTime) => Math.floor(dt.toSeconds());
const nextYear = DateTime.now().year + 1;

type Window = { start: number; end: number };

function get(as: Owner, window: Window, form?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const query = `start=${window.start}&end=${window.end}${form === undefined ? '' : `&form=${form}`}`;
  return call(calendar, { cookies: sessionCookies(as.cookie), path: `/api/events/calendar?${query}`, headers });
}

/** Both forms of a window: the full list, and the compact answer expanded as the browser does. */
async function bothForms(as: Owner, window: Window) {
  const before = Date.now();
  const [full, compact] = [await get(as, window), await get(as, window, 'compact')];
  const after = Date.now();
  expect([full.status, compact.status]).toEqual([200, 200]);
  expect(isCompactCalendar(compact.json)).toBe(true);
  const expanded = expandCompact(compact.json as unknown as CompactCalendar, before);
  // isPast is the clock's: only an occurrence starting while the two requests ran could differ.
  const settled = (list: CalendarOccurrence[]) =>
    list.map((o) => (o.from * 1000 >= before - 1000 && o.from * 1000 <= after + 1000 ? { ...o, isPast: 'either' } : o));
  return { full: full.json as unknown as CalendarOccurrence[], expanded, settled, fullAnswer: full, compactAnswer: compact };
}

async function create(as: Owner, body: Record<string, unknown>) {
  const answer = await as.post(createEvent, { duration: '0:30', ...body });
  if (answer.status !== 200) throw new Error(answer.text);
  return answer.json.event as { id: string; repeat: string; from: number };
}

const update = (as: Owner, body: Record<string, unknown>) => as.post(updateEvent, { duration: '0:30', ...body });
const remove = (as: Owner, id: string) => call(deleteEvent as never, { method: 'DELETE', cookies: sessionCookies(as.cookie), params: { id } });

/** A series that started in the past, written with SQL as the API refuses past starts. */
async function pastSeries(as: Owner, roomId: string, title: string, type: 'daily' | 'weekly', zone: string, daysAgo: number) {
  const db = await getDb();
  const start = DateTime.now().setZone(zone).minus({ days: daysAgo }).set({ hour: 7, minute: 0, second: 0, millisecond: 0 }).toJSDate();
  const rrule = buildRRule(type, start, zone);
  const [row] = await db
    .insert(events)
    .values({
      ownerId: as.user.id,
      roomId,
      title,
      startsAt: start,
      durationMinutes: 45,
      timezone: zone,
      repeatType: type,
      rrule,
      endsAt: seriesEnd({ start, timezone: zone, durationMinutes: 45, rrule }),
    })
    .returning();
  return row!;
}

describe('the compact form expands to exactly the full form', () => {
  let as: Owner;
  const windows: { name: string; window: Window }[] = [];

  beforeAll(async () => {
    as = await owner({ accountType: 'executive', numberOfRooms: 3 });
    const main = (await as.post(addRoom, { name: 'Main room', color: 3 })).json.room as { id: string };
    const board = (await as.post(addRoom, { name: 'Board room', color: 12 })).json.room as { id: string };
    const at = (zone: string, month: number, day: number, hour: number, minute = 0) =>
      DateTime.fromObject({ year: nextYear, month, day, hour, minute }, { zone });

    // Every repeat type, zones with and without DST (northern and southern), windows across the changes.
    const daily = await create(as, {
      title: 'Daily Berlin',
      from: unix(at('Europe/Berlin', 3, 20, 9)),
      timezone: 'Europe/Berlin',
      repeatType: 'daily',
      roomId: main.id,
    });
    const weekly = await create(as, {
      title: 'Weekly New York',
      from: unix(at('America/New_York', 10, 20, 17, 30)),
      timezone: 'America/New_York',
      repeatType: 'weekly',
      roomId: board.id,
      description: 'Status and blockers',
    });
    await create(as, {
      title: 'Monthly Sydney',
      from: unix(at('Australia/Sydney', 1, 31, 8)),
      timezone: 'Australia/Sydney',
      repeatType: 'monthly',
      roomId: main.id,
      duration: '1:00',
    });
    await create(as, { title: 'Annual Kolkata', from: unix(at('Asia/Kolkata', 3, 25, 10)), timezone: 'Asia/Kolkata', repeatType: 'annually', roomId: null });
    const workdays = await create(as, {
      title: 'Workdays London',
      from: unix(at('Europe/London', 3, 23, 8, 15)),
      timezone: 'Europe/London',
      repeatType: 'weekdays',
      roomId: main.id,
      duration: '0:15',
    });
    await create(as, {
      title: 'Custom fortnightly MWF',
      from: unix(at('Europe/Berlin', 3, 2, 23, 30)),
      timezone: 'Europe/Berlin',
      repeatType: 'custom',
      repeatCustom: { freq: 'weekly', interval: 2, weekdays: ['MO', 'WE', 'FR'], end: { type: 'until', date: `${nextYear}-11-30` } },
      roomId: board.id,
      duration: '2:00',
    });
    await create(as, {
      title: 'Custom last Friday',
      from: unix(at('America/New_York', 1, 30, 16)),
      timezone: 'America/New_York',
      repeatType: 'custom',
      repeatCustom: { freq: 'monthly', interval: 1, monthly: { mode: 'nth', n: -1, weekday: 'FR' } },
      roomId: main.id,
    });
    await create(as, {
      title: 'Custom every 3 days, 40 times',
      from: unix(at('Australia/Sydney', 3, 20, 12)),
      timezone: 'Australia/Sydney',
      repeatType: 'custom',
      repeatCustom: { freq: 'daily', interval: 3, end: { type: 'count', count: 40 } },
      roomId: main.id,
    });
    await create(as, {
      title: 'Custom last day of the month',
      from: unix(at('Europe/London', 1, 31, 18)),
      timezone: 'Europe/London',
      repeatType: 'custom',
      repeatCustom: { freq: 'monthly', interval: 1, monthly: { mode: 'day', day: -1 } },
      roomId: null,
    });
    await create(as, {
      title: 'A single meeting',
      from: unix(at('Europe/Berlin', 3, 29, 2, 30)),
      timezone: 'Europe/Berlin',
      roomId: board.id,
      description: 'Once',
    });
    // Started weeks ago: some occurrences are past.
    await pastSeries(as, main.id, 'Daily since last month', 'daily', 'Europe/Berlin', 40);

    // Exceptions: moved and retitled, moved days away (into another week), described, cancelled,
    // and a series split ("this and following").
    const occurrenceId = (event: { id: string }, dt: DateTime) => `${event.id}_${unix(dt)}`;
    const ok = (answer: Answer) => {
      if (answer.status !== 200) throw new Error(answer.text);
    };
    const dailyBase = { title: 'Daily Berlin', timezone: 'Europe/Berlin', repeatType: 'daily', roomId: main.id };
    ok(
      await update(as, {
        ...dailyBase,
        id: occurrenceId(daily, at('Europe/Berlin', 3, 27, 9)),
        repeatUpdate: 0,
        from: unix(at('Europe/Berlin', 3, 27, 11)),
        title: 'Daily Berlin (moved)',
      }),
    );
    ok(
      await update(as, {
        ...dailyBase,
        id: occurrenceId(daily, at('Europe/Berlin', 3, 30, 9)),
        repeatUpdate: 0,
        from: unix(at('Europe/Berlin', 3, 30, 9)),
        description: 'Only this one has notes',
        duration: '1:00',
      }),
    );
    ok(await remove(as, occurrenceId(daily, at('Europe/Berlin', 3, 29, 9))));
    const weeklyBase = { title: 'Weekly New York', timezone: 'America/New_York', repeatType: 'weekly', roomId: board.id, description: 'Status and blockers' };
    ok(
      await update(as, {
        ...weeklyBase,
        id: occurrenceId(weekly, at('America/New_York', 10, 27, 17, 30)),
        repeatUpdate: 0,
        from: unix(at('America/New_York', 11, 2, 9)),
      }),
    );
    ok(await remove(as, occurrenceId(weekly, at('America/New_York', 11, 10, 17, 30))));
    // Moved only, as another client could write it: title and description stay the series'.
    const db = await getDb();
    await db.insert(eventExceptions).values({
      eventId: weekly.id,
      originalStart: at('America/New_York', 11, 17, 17, 30).toJSDate(),
      startsAt: at('America/New_York', 11, 17, 19, 30).toJSDate(),
    });
    ok(
      await update(as, {
        title: 'Workdays London, later',
        timezone: 'Europe/London',
        repeatType: 'weekdays',
        roomId: main.id,
        duration: '0:15',
        id: occurrenceId(workdays, at('Europe/London', 3, 31, 8, 15)),
        repeatUpdate: 1,
        from: unix(at('Europe/London', 3, 31, 9, 45)),
      }),
    );

    const range = (name: string, from: DateTime, to: DateTime) => windows.push({ name, window: { start: unix(from), end: unix(to) } });
    range('Berlin week across the March DST change', at('Europe/Berlin', 3, 23, 0), at('Europe/Berlin', 3, 30, 0));
    range('42-day month grid of March (Berlin)', at('Europe/Berlin', 2, 23, 0), at('Europe/Berlin', 4, 6, 0));
    range('New York week across the November DST change', at('America/New_York', 10, 26, 0), at('America/New_York', 11, 2, 0));
    range('New York month grid of November', at('America/New_York', 10, 27, 0), at('America/New_York', 12, 8, 0));
    range('Sydney month across the April DST end', at('Australia/Sydney', 3, 30, 0), at('Australia/Sydney', 5, 11, 0));
    range('a window that cuts through meetings', at('Europe/Berlin', 3, 27, 9, 10), at('Europe/Berlin', 3, 30, 9, 20));
    range('this week and last (past occurrences)', DateTime.now().minus({ days: 7 }), DateTime.now().plus({ days: 7 }));
    range('400 days', at('UTC', 1, 1, 0), at('UTC', 1, 1, 0).plus({ days: 400 }));
  });

  it.each([0, 1, 2, 3, 4, 5, 6, 7])('window %#', async (index) => {
    const { window } = windows[index]!;
    const { full, expanded, settled } = await bothForms(as, window);
    expect(full.length).toBeGreaterThan(0);
    expect(settled(expanded)).toEqual(settled(full));
  });

  it('covers what it claims: exceptions, cancellations, a split, DST, single and past meetings', async () => {
    const { full, compactAnswer } = await bothForms(as, windows[7]!.window);
    const titles = new Set(full.map((o) => o.title));
    for (const title of ['Daily Berlin (moved)', 'Workdays London, later', 'A single meeting', 'Annual Kolkata', 'Custom last Friday'])
      expect(titles).toContain(title);
    expect(full.some((o) => o.isException && o.description === 'Only this one has notes' && o.duration === '1:00')).toBe(true);
    expect(
      full.some(
        (o) =>
          o.title === 'Weekly New York' &&
          o.isException &&
          DateTime.fromSeconds(o.from, { zone: 'America/New_York' }).toFormat('MM-dd HH:mm') === '11-02 09:00',
      ),
    ).toBe(true);
    expect(
      full.find((o) => o.isException && DateTime.fromSeconds(o.from, { zone: 'America/New_York' }).toFormat('MM-dd HH:mm') === '11-17 19:30'),
    ).toMatchObject({ title: 'Weekly New York', description: 'Status and blockers' });
    const berlinDaily = full.filter((o) => o.title === 'Daily Berlin');
    expect(new Set(berlinDaily.map((o) => DateTime.fromSeconds(o.from, { zone: 'Europe/Berlin' }).toFormat('HH:mm')))).toEqual(new Set(['09:00']));
    expect(berlinDaily.some((o) => DateTime.fromSeconds(o.from, { zone: 'Europe/Berlin' }).toFormat('MM-dd') === '03-29')).toBe(false);
    expect((await bothForms(as, windows[6]!.window)).full.some((o) => o.isPast)).toBe(true);
    // An order of magnitude smaller, even for this small calendar.
    expect(compactAnswer.text.length * 5).toBeLessThan(JSON.stringify(full).length);
  });
});

describe('ETag and 304', () => {
  let as: Owner;
  let room: { id: string; name: string };
  let series: { id: string; repeat: string; from: number };
  const start = DateTime.now().setZone('Europe/Berlin').startOf('week').plus({ weeks: 2 }).set({ hour: 9 });
  const window = { start: unix(start.minus({ days: 1 })), end: unix(start.plus({ weeks: 5 })) };
  const weekly = { title: 'Weekly planning', timezone: 'Europe/Berlin', repeatType: 'weekly' };

  const tags = async (who: Owner = as) => {
    const [full, compact] = [await get(who, window), await get(who, window, 'compact')];
    expect([full.status, compact.status]).toEqual([200, 200]);
    return { full: full.headers.get('etag')!, compact: compact.headers.get('etag')! };
  };

  beforeAll(async () => {
    as = await owner();
    room = (await as.post(addRoom, { name: 'Main room', color: 2 })).json.room as { id: string; name: string };
    series = await create(as, { ...weekly, from: unix(start), roomId: room.id });
  });

  it('a weak ETag, private and revalidated every time; the same answer twice has the same tag', async () => {
    const answer = await get(as, window, 'compact');
    expect(answer.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]{20,}"$/);
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect((await get(as, window)).headers.get('cache-control')).toBe('private, no-cache');
    expect(await tags()).toEqual(await tags());
    expect((await tags()).full).not.toBe((await tags()).compact);
  });

  it('If-None-Match with the tag → 304 without a body, in either form; another tag → 200', async () => {
    for (const form of ['compact', undefined]) {
      const first = await get(as, window, form);
      const etag = first.headers.get('etag')!;
      for (const header of [etag, etag.replace(/^W\//, ''), `"something-else", ${etag}`, '*']) {
        const again = await get(as, window, form, { 'if-none-match': header });
        expect([again.status, again.text]).toEqual([304, '']);
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('cache-control')).toBe('private, no-cache');
      }
      const other = await get(as, window, form, { 'if-none-match': 'W/"not-this-one"' });
      expect(other.status).toBe(200);
      expect(other.text).toBe(first.text);
    }
  });

  it('changes after every kind of write, and the answer then shows it', async () => {
    let previous = await tags();
    const seen = new Set([previous.full, previous.compact]);
    const changed = async (what: string, check: (list: CalendarOccurrence[]) => boolean) => {
      const now = await tags();
      expect({ what, full: seen.has(now.full), compact: seen.has(now.compact) }).toEqual({ what, full: false, compact: false });
      seen.add(now.full).add(now.compact);
      previous = now;
      const { full, expanded, settled } = await bothForms(as, window);
      expect(settled(expanded)).toEqual(settled(full));
      expect({ what, shown: check(full) }).toEqual({ what, shown: true });
    };
    const occurrences = async () => (await bothForms(as, window)).full;
    const titled = (title: string) => (list: CalendarOccurrence[]) => list.some((o) => o.title === title);

    const single = await create(as, { title: 'One-off review', from: unix(start.plus({ days: 2 })), timezone: 'Europe/Berlin', roomId: room.id });
    await changed('create an event', titled('One-off review'));
    await update(as, { title: 'One-off review, renamed', from: unix(start.plus({ days: 2 })), timezone: 'Europe/Berlin', roomId: room.id, id: single.id });
    await changed('update an event', titled('One-off review, renamed'));
    let list = (await occurrences()).filter((o) => o.eventId === series.id);
    await update(as, { ...weekly, roomId: room.id, id: list[1]!.id, repeatUpdate: 0, from: list[1]!.from + 3600, title: 'Planning, moved' });
    await changed('edit one occurrence', titled('Planning, moved'));
    list = (await occurrences()).filter((o) => o.eventId === series.id && !o.isException);
    await remove(as, list[0]!.id);
    await changed('delete one occurrence', (all) => !all.some((o) => o.id === list[0]!.id));
    list = (await occurrences()).filter((o) => o.eventId === series.id && !o.isException);
    await update(as, { ...weekly, roomId: room.id, id: list.at(-1)!.id, repeatUpdate: 1, from: list.at(-1)!.from + 1800, title: 'Planning, later' });
    await changed('this and following', titled('Planning, later'));
    await update(as, { ...weekly, title: 'Planning for all', roomId: room.id, id: series.id, allEvents: true, from: series.from });
    await changed('the whole series', titled('Planning for all'));
    await as.post(updateRoom, { id: room.id, name: 'Renamed room' });
    await changed('rename the room', (all) => all.every((o) => o.room?.name === 'Renamed room'));
    await as.post(updateRoom, { id: room.id, color: 9 });
    await changed('recolour the room', (all) => all.every((o) => o.room?.color === 9));
    // Another instance, or an administrator with SQL: the version lives in the database.
    const db = await getDb();
    await db.update(events).set({ title: 'Written with SQL' }).where(eq(events.id, single.id));
    await changed('a write that bypasses the app', titled('Written with SQL'));
    await db.update(rooms).set({ name: 'Room by SQL' }).where(eq(rooms.id, room.id));
    await changed('a room written with SQL', (all) => all.every((o) => o.room?.name === 'Room by SQL'));
    await remove(as, single.id);
    await changed('delete an event', (all) => !all.some((o) => o.eventId === single.id));
    await remove(as, series.repeat);
    await changed('delete the series', (all) => all.length === 0);
  });

  it('stays the same through reads, unrelated writes, and other users’ writes', async () => {
    const mine = await create(as, { ...weekly, title: 'Stable', from: unix(start), roomId: room.id });
    const before = await tags();
    await as.get(listEvents);
    await as.get(upcoming);
    await as.post(addContact, contactBody());
    const other = await owner();
    const theirRoom = (await other.post(addRoom, { name: 'Their room' })).json.room as { id: string };
    const theirs = await create(other, { ...weekly, from: unix(start), roomId: theirRoom.id });
    await other.post(updateRoom, { id: theirRoom.id, name: 'Their renamed room' });
    await remove(other, theirs.repeat);
    // Locking a row for an update that is then refused changes nothing either.
    expect((await update(as, { ...weekly, id: mine.id, from: unix(DateTime.now().minus({ days: 1 })) })).json).toMatchObject({
      errorCode: 'error_is_past_event',
    });
    expect(await tags()).toEqual(before);
  });

  it('the full form’s tag follows the clock (isPast); the compact form’s does not', async () => {
    const who = await owner();
    const roomId = ((await who.post(addRoom, { name: 'Clock room' })).json.room as { id: string }).id;
    const past = await pastSeries(who, roomId, 'Daily clock', 'daily', 'Europe/Berlin', 10);
    const w = { start: unix(DateTime.now().minus({ days: 3 })), end: unix(DateTime.now().plus({ days: 3 })) };
    const list = (await get(who, w)).json as unknown as CalendarOccurrence[];
    const next = list.find((o) => o.eventId === past.id && !o.isPast)!;
    const [just, after] = [next.from * 1000 - 1, next.from * 1000 + 1];
    const fullBefore = await calendarAnswer(who.user, w, 'full', null, just);
    const fullAfter = await calendarAnswer(who.user, w, 'full', null, after);
    expect(fullAfter.etag).not.toBe(fullBefore.etag);
    const parsed = (answer: { body?: string }) => (JSON.parse(answer.body!) as CalendarOccurrence[]).find((o) => o.id === next.id)!.isPast;
    expect([parsed(fullBefore), parsed(fullAfter)]).toEqual([false, true]);
    expect((await calendarAnswer(who.user, w, 'full', fullBefore.etag, after)).status).toBe(200);
    expect((await calendarAnswer(who.user, w, 'compact', null, just)).etag).toBe((await calendarAnswer(who.user, w, 'compact', null, after)).etag);
  });
});

describe('isolation: one user’s tag or cached answer is never another’s', () => {
  it('the same window, cached for one user, answers the other user’s own meetings', async () => {
    const alice = await owner();
    const bob = await owner();
    const start = DateTime.now().plus({ days: 3 }).startOf('hour');
    await create(alice, { title: 'Alice only', from: unix(start), timezone: 'Europe/Berlin', repeatType: 'daily' });
    const window = { start: unix(start.minus({ days: 1 })), end: unix(start.plus({ days: 30 })) };
    clearCalendarCache();
    const aliceAnswer = await get(alice, window, 'compact');
    expect((aliceAnswer.json as unknown as CompactCalendar).series.map((s) => s.title)).toEqual(['Alice only']);
    expect(calendarCacheSize()).toBe(1);
    for (const form of ['compact', undefined]) {
      const aliceTag = (await get(alice, window, form)).headers.get('etag')!;
      const bobs = await get(bob, window, form, { 'if-none-match': aliceTag });
      expect(bobs.status).toBe(200);
      expect(bobs.headers.get('etag')).not.toBe(aliceTag);
      expect(bobs.text).not.toContain('Alice only');
    }
    expect((await get(bob, window, 'compact')).json).toMatchObject({ series: [], rooms: {} });
    expect(calendarCacheSize()).toBe(2);
    // Two empty calendars have different tags too.
    const carol = await owner();
    const dave = await owner();
    expect((await get(carol, window, 'compact')).headers.get('etag')).not.toBe((await get(dave, window, 'compact')).headers.get('etag'));
  });

  it('without a session: 401, whatever If-None-Match says', async () => {
    const answer = await call(calendar as never, { path: '/api/events/calendar?start=0&end=86400&form=compact', headers: { 'if-none-match': '*' } });
    expect([answer.status, answer.json.errorCode]).toEqual([401, 'authentication_error']);
  });
});

describe('bad query → 400 with a catalogue code', () => {
  let as: Owner;
  beforeAll(async () => {
    as = await owner();
  });
  it.each([
    { name: 'an unknown form', query: 'start=0&end=86400&form=xml', code: 'incorrect_data' },
    { name: 'an empty form', query: 'start=0&end=86400&form=', code: 'incorrect_data' },
    { name: 'the form in capitals', query: 'start=0&end=86400&form=COMPACT', code: 'incorrect_data' },
    { name: 'compact without start', query: 'end=86400&form=compact', code: 'missing_data' },
    { name: 'compact with a negative start', query: 'start=-1&end=86400&form=compact', code: 'incorrect_data' },
    { name: 'compact with a fractional end', query: 'start=0&end=86400.5&form=compact', code: 'incorrect_data' },
    { name: 'compact over 400 days', query: `start=0&end=${401 * 86400}&form=compact`, code: 'incorrect_data' },
    { name: 'compact with an empty window', query: 'start=86400&end=86400&form=compact', code: 'incorrect_data' },
  ])('$name → 400 $code', async ({ query, code }) => {
    const answer = await call(calendar, { cookies: sessionCookies(as.cookie), path: `/api/events/calendar?${query}` });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: code, message: expect.any(String) });
    expect(answer.headers.get('etag')).toBeNull();
  });
});
