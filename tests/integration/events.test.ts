import { and, eq } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { closeDb, getDb } from '@/lib/db/client';
import { verifyPassword } from '@/lib/auth/password';
import { configuration, eventReminders, events, mailOutbox, rooms } from '@/lib/db/schema';
import { roomPasswordSecrets, stretchRoomPassword } from '@/lib/meeting/room-password';
import { GET as listEvents } from '@/app/api/events/route';
import { GET as calendar } from '@/app/api/events/calendar/route';
import { GET as upcoming } from '@/app/api/events/upcoming/route';
import { POST as createEvent } from '@/app/api/event/route';
import { POST as updateEvent } from '@/app/api/event/update/route';
import { DELETE as deleteEvent, GET as getEvent } from '@/app/api/event/[id]/route';
import { DELETE as revokeFeed, POST as createFeed } from '@/app/api/calendar/feed/route';
import { GET as readFeed } from '@/app/api/calendar/feed/[token]/route';
import { POST as addRoom } from '@/app/api/room/route';
import { POST as addGroup } from '@/app/api/groups/route';
import { call, sessionCookies, type Answer } from '../support/api';
import { addContacts, owner, type Owner } from '../support/address-book';

beforeAll(() => getDb(), 60_000);
afterAll(() => closeDb());

const BERLIN = 'Europe/Berlin';
const unix = (dt: DateTime) => Math.floor(dt.toSeconds());
/** 09:00 Berlin on the Monday `weeks` weeks ahead: always in the future. */
const monday = (weeks = 2, hour = 9) => DateTime.now().setZone(BERLIN).startOf('week').plus({ weeks }).set({ hour, minute: 0, second: 0, millisecond: 0 });

type Occ = { id: string; eventId: string; repeat: string; from: number; to: number; title: string; isException: boolean; occurrence: number };

const base = (overrides: Record<string, unknown> = {}) => ({
  title: 'Weekly planning',
  from: unix(monday()),
  duration: '0:30',
  timezone: BERLIN,
  ...overrides,
});

async function create(as: Owner, body: Record<string, unknown>) {
  const answer = await as.post(createEvent, body);
  if (answer.status !== 200) throw new Error(answer.text);
  return answer.json.event as { id: string; repeat: string; from: number; link: string | null; [k: string]: unknown };
}

async function window(as: Owner, from: DateTime, to: DateTime): Promise<Occ[]> {
  const answer = await call(calendar, {
    cookies: sessionCookies(as.cookie),
    path: `/api/events/calendar?start=${unix(from)}&end=${unix(to)}`,
  });
  if (answer.status !== 200) throw new Error(answer.text);
  return answer.json as unknown as Occ[];
}

const berlinTimes = (list: Occ[]) => list.map((o) => DateTime.fromSeconds(o.from, { zone: BERLIN }).toFormat('MM-dd HH:mm'));
const remove = (as: Owner, id: string, body?: unknown) =>
  call(deleteEvent as never, { method: 'DELETE', cookies: sessionCookies(as.cookie), params: { id }, body });

describe('POST /api/event: SPEC point 5 rules', () => {
  let as: Owner;
  let otherRoom: string;
  let otherGroup: string;
  beforeAll(async () => {
    as = await owner();
    const other = await owner();
    otherRoom = ((await other.post(addRoom, { name: 'Not yours' })).json.room as { id: string }).id;
    otherGroup = ((await other.post(addGroup, { name: 'Theirs', attendees: await addContacts(other, 2) })).json.group as { id: string }).id;
  });

  it.each([
    { name: 'a name of four characters', body: { title: 'Tiny' }, code: 'room_title_length' },
    { name: 'no start', body: { from: undefined }, code: 'missing_data' },
    { name: 'a start that is not a number', body: { from: '2030-01-01' }, code: 'incorrect_data' },
    { name: 'a start in the past', body: { from: unix(DateTime.now().minus({ minutes: 1 })) }, code: 'error_is_past_event' },
    { name: 'a duration that is not h:mm', body: { duration: '45' }, code: 'incorrect_data' },
    { name: 'a duration of no time', body: { duration: '0:00' }, code: 'incorrect_data' },
    { name: 'a duration over 12 hours', body: { duration: '12:05' }, code: 'incorrect_data' },
    { name: 'a duration with 60 minutes', body: { duration: '1:60' }, code: 'incorrect_data' },
    { name: 'an unknown time zone', body: { timezone: 'Mars/Olympus' }, code: 'incorrect_data' },
    { name: 'no time zone', body: { timezone: undefined }, code: 'missing_data' },
    { name: 'an unknown repeat type', body: { repeatType: 'hourly' }, code: 'incorrect_data' },
    { name: 'custom repeat without its rule', body: { repeatType: 'custom' }, code: 'missing_data' },
    { name: 'custom repeat every 0 days', body: { repeatType: 'custom', repeatCustom: { freq: 'daily', interval: 0 } }, code: 'incorrect_data' },
    { name: 'an attendee with a bad address', body: { attendees: ['not-an-address'] }, code: 'invite_incorrect_email_format' },
    { name: 'the same attendee twice', body: { attendees: ['ann@example.test', { email: 'ANN@example.test' }] }, code: 'contact_exists', status: 409 },
    {
      name: 'the same notification twice',
      body: {
        notifications: [
          { type: 'email', time: 15, timeType: 'minutes' },
          { time: 15, timeType: 'minutes' },
        ],
      },
      code: 'notification_not_added',
    },
    { name: 'a notification period that is not a choice', body: { notifications: [{ time: 45, timeType: 'minutes' }] }, code: 'incorrect_data' },
    { name: 'a notification that is not e-mail', body: { notifications: [{ type: 'sms', time: 15, timeType: 'minutes' }] }, code: 'incorrect_data' },
    { name: 'a custom password of 7 characters', body: { passwordMode: 'custom', password: 'seven77' }, code: 'room_password_length' },
    { name: 'a custom password left out', body: { passwordMode: 'custom' }, code: 'room_password_length' },
    { name: 'a body that is not JSON', body: '{title:', code: 'incorrect_data' },
  ])('$name → $code, and nothing is stored', async ({ body, code, status }) => {
    const answer = await as.post(createEvent, typeof body === 'string' ? body : base(body));
    expect(answer.status).toBe(status ?? 400);
    expect(answer.json).toMatchObject({ status: 'error', errorCode: code, message: expect.any(String) });
    expect((await as.get(listEvents)).json).toEqual([]);
  });

  it('without repeat, only reminders that fit before the start: 1 hour before a meeting in 20 minutes is refused', async () => {
    const soon = DateTime.now().plus({ minutes: 20 });
    const answer = await as.post(createEvent, base({ from: unix(soon), notifications: [{ time: 1, timeType: 'hour' }] }));
    expect(answer.json).toMatchObject({ errorCode: 'notification_not_added', field: 'notifications' });
    const repeating = await as.post(createEvent, base({ from: unix(soon), repeatType: 'daily', notifications: [{ time: 1, timeType: 'hour' }] }));
    expect(repeating.status).toBe(200);
    await remove(as, (repeating.json.event as { id: string }).id);
  });

  it("the user's own address is not an attendee; another user's room or group is not found", async () => {
    expect((await as.post(createEvent, base({ attendees: [as.user.email.toUpperCase()] }))).json).toMatchObject({
      errorCode: 'incorrect_email',
      field: 'attendees',
    });
    expect((await as.post(createEvent, base({ roomId: otherRoom }))).json).toMatchObject({ errorCode: 'room_not_found' });
    expect((await as.post(createEvent, base({ groups: [otherGroup] }))).json).toMatchObject({ errorCode: 'incorrect_data', field: 'groups' });
    expect((await as.get(listEvents)).json).toEqual([]);
  });

  // This file runs without billing: one limit, the participants per meeting (issue 48), so 4
  // seats invite 3 people besides the organizer, whatever max_event_attendees says.
  it('at most the participants per meeting, organizer included, counting group members', async () => {
    const db = await getDb();
    await db.update(configuration).set({ participantsPerMeeting: 4, maxEventAttendees: 100 });
    try {
      const group = ((await as.post(addGroup, { name: 'Three people', attendees: await addContacts(as, 3) })).json.group as { id: string }).id;
      expect((await as.post(createEvent, base({ groups: [group], attendees: ['x@example.test'] }))).json).toMatchObject({
        errorCode: 'incorrect_data',
        field: 'attendees',
      });
      const ok = await as.post(createEvent, base({ groups: [group] }));
      expect(ok.status).toBe(200);
      expect((ok.json.event as { attendees: unknown[] }).attendees).toHaveLength(4);
      await remove(as, (ok.json.event as { id: string }).id);
    } finally {
      await db.update(configuration).set({ participantsPerMeeting: 30 });
    }
  });

  it('without a session: authentication_error', async () => {
    const answer = await call(createEvent as never, { method: 'POST', body: base() });
    expect(answer.status).toBe(401);
    expect((await call(calendar as never, { path: '/api/events/calendar?start=0&end=1' })).json).toMatchObject({ errorCode: 'authentication_error' });
  });
});

describe('scheduling (SPEC points 3 and 4)', () => {
  it('defaults: "(No Title)", e-mail 15 minutes before, to = from + duration, the default room\'s link without a key', async () => {
    const as = await owner();
    const room = (await as.post(addRoom, { name: 'Main room' })).json.room as { id: string; link: string };
    const event = await create(as, base({ title: '', duration: '1:00' }));
    expect(event).toMatchObject({
      title: '(No Title)',
      duration: '1:00',
      to: event.from + 3600,
      repeatType: 'none',
      notifications: [{ type: 'email', time: 15, timeType: 'minutes' }],
      roomId: room.id,
      link: room.link,
      attendees: [{ email: as.user.email, role: 'organizer' }],
    });
    expect(event.link).not.toContain('#');
    expect((await as.get(getEvent, { id: event.id })).json).toMatchObject({ id: event.id, title: '(No Title)' });
  });

  it.each(['0:45', '1:30', '2:25'])('a meeting of %s (45 and 90 minutes and custom lengths, issue 48) is stored and read back', async (duration) => {
    const as = await owner();
    await as.post(addRoom, { name: 'Main room' });
    const event = await create(as, base({ duration }));
    const [hours = 0, minutes = 0] = duration.split(':').map(Number);
    expect(event).toMatchObject({ duration, to: event.from + (hours * 60 + minutes) * 60 });
    expect((await as.get(getEvent, { id: event.id })).json).toMatchObject({ duration });
  });

  it('"UTC" is stored as Europe/London; a generated password becomes the room\'s, answered once and never again', async () => {
    const as = await owner();
    const room = (await as.post(addRoom, { name: 'Main room' })).json.room as { id: string };
    const answer = await as.post(createEvent, base({ timezone: 'UTC', passwordMode: 'generated' }));
    expect(answer.json).toMatchObject({ event: { timezone: 'Europe/London', passwordMode: 'generated', hasPassword: true, roomId: room.id } });
    const password = answer.json.password as string;
    expect(password).toMatch(/^[A-Za-z0-9!@#$%^&*]{16}$/);
    const again = await as.get(getEvent, { id: (answer.json.event as { id: string }).id });
    expect(again.text).not.toContain(password);
    // The meeting's password is its room's: a browser typing it makes the proof the room checks.
    const db = await getDb();
    const [stored] = await db.select().from(rooms).where(eq(rooms.id, room.id));
    const { proof } = await roomPasswordSecrets(await stretchRoomPassword(password, stored!.passwordSalt!));
    expect(await verifyPassword(stored!.passwordHash!, proof)).toBe(true);
  });

  it('a password needs a room: without one → room_not_found on roomId, and nothing is stored', async () => {
    const as = await owner();
    const answer = await as.post(createEvent, base({ passwordMode: 'generated' }));
    expect([answer.status, answer.json.errorCode, answer.json.field]).toEqual([404, 'room_not_found', 'roomId']);
    expect((await as.get(listEvents)).json).toEqual([]);
  });

  it('"none" keeps a protected room\'s password, and the meeting is saved as protected', async () => {
    const as = await owner();
    await as.post(addRoom, { name: 'Main room', passwordProof: 'p'.repeat(43), passwordSalt: 's'.repeat(22) });
    const answer = await as.post(createEvent, base({ passwordMode: 'none' }));
    expect(answer.json).toMatchObject({ event: { passwordMode: 'custom', hasPassword: true } });
  });

  it('a weekly 09:00 Berlin series stays at 09:00 across the DST change, expanded only in the window', async () => {
    const as = await owner();
    // The Monday before the last Sunday of March (DST starts) of next year.
    const year = DateTime.now().year + 1;
    const start = DateTime.fromObject({ year, month: 3, day: 31, hour: 9 }, { zone: BERLIN }).set({ weekday: 1 }).minus({ weeks: 2 });
    const event = await create(as, base({ from: unix(start), repeatType: 'weekly' }));
    const list = await window(as, start.minus({ days: 1 }), start.plus({ weeks: 4 }));
    expect(list).toHaveLength(4);
    expect(new Set(list.map((o) => DateTime.fromSeconds(o.from, { zone: BERLIN }).toFormat('ccc HH:mm')))).toEqual(new Set(['Mon 09:00']));
    expect(new Set(list.map((o) => DateTime.fromSeconds(o.from, { zone: 'UTC' }).hour))).toEqual(new Set([7, 8]));
    expect(list.every((o) => o.repeat === event.repeat && o.eventId === event.id)).toBe(true);
    // Ten years on, with no cap.
    expect(await window(as, start.plus({ years: 10 }), start.plus({ years: 10, weeks: 1 }))).toHaveLength(1);
  });

  it.each([
    { name: 'no end', query: 'start=100', code: 'missing_data' },
    { name: 'end before start', query: 'start=200&end=100', code: 'incorrect_data' },
    { name: 'a window of more than 400 days', query: `start=0&end=${401 * 86400}`, code: 'incorrect_data' },
    { name: 'text', query: 'start=monday&end=friday', code: 'incorrect_data' },
  ])('GET /api/events/calendar with $name → 400 $code', async ({ query, code }) => {
    const as = await owner();
    const answer = await call(calendar, { cookies: sessionCookies(as.cookie), path: `/api/events/calendar?${query}` });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ errorCode: code });
  });

  it('GET /api/events/upcoming lists the next occurrences', async () => {
    const as = await owner();
    await create(as, base({ from: unix(DateTime.now().plus({ days: 1 })), repeatType: 'daily', title: 'Daily standup' }));
    const list = (await as.get(upcoming)).json as unknown as Occ[];
    expect(list).toHaveLength(20);
    expect(list[0]).toMatchObject({ title: 'Daily standup' });
  });
});

describe('changing a series (SPEC point 4: this meeting, this and following, all events)', () => {
  let as: Owner;
  let event: { id: string; repeat: string };
  const start = monday(2);
  const span = [start.minus({ days: 1 }), start.plus({ weeks: 6 })] as const;
  const update = (body: Record<string, unknown>) => as.post(updateEvent, { ...base({ repeatType: 'weekly' }), ...body });

  beforeEach(async () => {
    as = await owner();
    event = await create(as, base({ from: unix(start), repeatType: 'weekly' }));
  });

  it('repeatUpdate 0 moves one occurrence; the others stay', async () => {
    const second = (await window(as, ...span))[1]!;
    const answer = await update({ id: second.id, repeatUpdate: 0, from: second.from + 3600, title: 'Moved planning' });
    expect(answer.status).toBe(200);
    const list = await window(as, ...span);
    expect(berlinTimes(list)).toEqual([0, 1, 2, 3, 4, 5].map((w) => start.plus({ weeks: w, hours: w === 1 ? 1 : 0 }).toFormat('MM-dd HH:mm')));
    expect(list[1]).toMatchObject({ title: 'Moved planning', isException: true, id: second.id });
    expect((await as.get(getEvent, { id: second.id })).json).toMatchObject({ occurrence: { title: 'Moved planning' } });
  });

  it('repeatUpdate 1 splits the series: earlier ones unchanged, later ones moved, one edited on its own keeps its edit', async () => {
    const before = await window(as, ...span);
    await update({ id: before[4]!.id, repeatUpdate: 0, from: before[4]!.from + 1800, title: 'Edited alone' });
    const answer = await update({ id: before[2]!.id, repeatUpdate: 1, from: before[2]!.from + 3600, title: 'Later planning' });
    expect(answer.status).toBe(200);
    const list = await window(as, ...span);
    expect(berlinTimes(list)).toEqual([
      start.toFormat('MM-dd HH:mm'),
      start.plus({ weeks: 1 }).toFormat('MM-dd HH:mm'),
      start.plus({ weeks: 2, hours: 1 }).toFormat('MM-dd HH:mm'),
      start.plus({ weeks: 3, hours: 1 }).toFormat('MM-dd HH:mm'),
      start.plus({ weeks: 4, minutes: 30 }).toFormat('MM-dd HH:mm'),
      start.plus({ weeks: 5, hours: 1 }).toFormat('MM-dd HH:mm'),
    ]);
    expect(list.map((o) => o.title)).toEqual(['Weekly planning', 'Weekly planning', 'Later planning', 'Later planning', 'Edited alone', 'Later planning']);
    expect(new Set(list.map((o) => o.repeat))).toEqual(new Set([event.repeat]));
    expect(new Set(list.map((o) => o.eventId)).size).toBe(2);
  });

  it('allEvents from one occurrence moves the whole series on the wall clock', async () => {
    const list = await window(as, ...span);
    const answer = await update({ id: list[3]!.id, allEvents: true, from: list[3]!.from + 2 * 3600 });
    expect(answer.status).toBe(200);
    expect(berlinTimes(await window(as, ...span))).toEqual([0, 1, 2, 3, 4, 5].map((w) => start.plus({ weeks: w, hours: 2 }).toFormat('MM-dd HH:mm')));
  });

  it('an occurrence cannot move into the past; an unknown occurrence is not found', async () => {
    const list = await window(as, ...span);
    expect((await update({ id: list[1]!.id, repeatUpdate: 0, from: unix(DateTime.now().minus({ hours: 1 })) })).json).toMatchObject({
      errorCode: 'error_is_past_event',
    });
    expect((await update({ id: `${event.id}_${list[1]!.from + 60}`, repeatUpdate: 0 })).json).toMatchObject({ errorCode: 'event_not_found' });
    expect((await update({ id: 'not-an-id' })).json).toMatchObject({ errorCode: 'event_not_found' });
  });

  it('DELETE an occurrence (EXDATE), then the repeat uid removes every part of the series', async () => {
    const list = await window(as, ...span);
    await update({ id: list[3]!.id, repeatUpdate: 1, from: list[3]!.from + 3600 });
    expect((await remove(as, list[1]!.id, { message: 'Holiday' })).status).toBe(200);
    expect(berlinTimes(await window(as, ...span))).toHaveLength(5);
    const all = await remove(as, event.repeat);
    expect(all.json).toMatchObject({ status: 'ok', removed: 2 });
    expect(await window(as, ...span)).toEqual([]);
    expect((await as.get(listEvents)).json).toEqual([]);
    expect((await remove(as, event.repeat)).json).toMatchObject({ errorCode: 'event_not_found' });
  });
});

describe('reminders are planned in the transaction of the change', () => {
  const pending = async (eventId: string) => {
    const db = await getDb();
    return db
      .select()
      .from(eventReminders)
      .where(and(eq(eventReminders.eventId, eventId), eq(eventReminders.status, 'pending')));
  };

  it('one row per (occurrence, recipient, kind), re-planned when the meeting moves, dropped when it is cancelled', async () => {
    const as = await owner();
    const start = DateTime.now().plus({ days: 2 }).startOf('hour');
    const event = await create(
      as,
      base({
        from: unix(start),
        attendees: ['guest@example.test'],
        notifications: [
          { time: 15, timeType: 'minutes' },
          { time: 1, timeType: 'day' },
        ],
      }),
    );
    const rows = await pending(event.id);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.dueAt.getTime()))).toEqual(new Set([start.minus({ minutes: 15 }).toMillis(), start.minus({ days: 1 }).toMillis()]));
    await as.post(updateEvent, { ...base({ from: unix(start.plus({ hours: 2 })), attendees: ['guest@example.test'] }), id: event.id });
    const moved = await pending(event.id);
    expect(moved.map((r) => r.dueAt.getTime())).toEqual(moved.map(() => start.plus({ hours: 2 }).minus({ minutes: 15 }).toMillis()));
    await remove(as, event.id);
    expect(await pending(event.id)).toEqual([]);
  });

  it('a failing change plans nothing and queues no mail (all or nothing)', async () => {
    const as = await owner();
    const db = await getDb();
    const answer = await as.post(createEvent, base({ attendees: ['ok@example.test', 'bad'] }));
    expect(answer.status).toBe(400);
    expect(await db.select().from(events).where(eq(events.ownerId, as.user.id))).toEqual([]);
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ok@example.test'))).toEqual([]);
  });
});

describe('isolation from a second user', () => {
  it('another user can neither read, change, nor delete the meeting, nor see it in a calendar', async () => {
    const alice = await owner();
    const bob = await owner();
    const event = await create(alice, base({ repeatType: 'daily' }));
    const occurrence = (await window(alice, monday().minus({ hours: 1 }), monday().plus({ hours: 1 })))[0]!;
    const checks: Answer[] = [
      await bob.get(getEvent, { id: event.id }),
      await bob.get(getEvent, { id: occurrence.id }),
      await bob.post(updateEvent, { ...base(), id: event.id }),
      await bob.post(updateEvent, { ...base(), id: occurrence.id, repeatUpdate: 0 }),
      await remove(bob, event.id),
      await remove(bob, occurrence.id),
      await remove(bob, event.repeat),
    ];
    for (const answer of checks) expect([answer.status, answer.json.errorCode]).toEqual([404, 'event_not_found']);
    expect(await window(bob, monday().minus({ days: 1 }), monday().plus({ days: 7 }))).toEqual([]);
    expect((await bob.get(listEvents)).json).toEqual([]);
    expect(await window(alice, monday().minus({ hours: 1 }), monday().plus({ days: 7 }))).toHaveLength(7);
  });
});

describe('private ICS feed', () => {
  it('serves the meetings as text/calendar until revoked; a new URL revokes the old one', async () => {
    const as = await owner();
    await create(as, base({ repeatType: 'weekly', title: 'Feed meeting' }));
    const first = (await as.post(createFeed, {})).json.url as string;
    const token = (url: string) => url.split('/').pop()!;
    const feed = await call(readFeed as never, { params: { token: token(first) } });
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toContain('text/calendar');
    expect(feed.text).toContain('SUMMARY:Feed meeting');
    expect(feed.text).toContain('RRULE:FREQ=WEEKLY');
    const second = (await as.post(createFeed, {})).json.url as string;
    expect((await call(readFeed as never, { params: { token: token(first) } })).status).toBe(404);
    expect((await call(readFeed as never, { params: { token: `${token(second)}.ics` } })).status).toBe(200);
    await call(revokeFeed as never, { method: 'DELETE', cookies: sessionCookies(as.cookie) });
    expect((await call(readFeed as never, { params: { token: token(second) } })).status).toBe(404);
  });
});
