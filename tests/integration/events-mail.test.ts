import ical, { type VEvent } from 'node-ical';
import { DateTime } from 'luxon';
import type * as DbModule from '@/lib/db/client';
import type * as MailModule from '@/lib/mail';
import type * as RemindersModule from '@/lib/events/reminders';
import type * as ApiSupport from '../support/api';
import type * as AddressBook from '../support/address-book';
import { startSmtpServer, type ParsedMail, type TestSmtpServer } from '../support/smtp';
import { useOwnPostgresDatabase } from '../support/own-postgres-database';

// Invitations, updates, cancellations and reminders, received by a real SMTP server on loopback
// and their .ics files parsed back with node-ical (SPEC point 4; issue 7 "Mail").

let smtp: TestSmtpServer;
let mail: typeof MailModule;
let reminders: typeof RemindersModule;
let support: typeof ApiSupport;
let book: typeof AddressBook;
let closeDb: () => Promise<void>;
let dropOwnDatabase: (() => Promise<void>) | undefined;
type Handler = Parameters<typeof ApiSupport.call>[0];
let routes: { create: Handler; update: Handler; remove: Handler; calendar: Handler; addContact: Handler };

beforeAll(async () => {
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
  dropOwnDatabase = await useOwnPostgresDatabase('enclave_test_events_mail');
  mail = await import('@/lib/mail');
  reminders = await import('@/lib/events/reminders');
  support = await import('../support/api');
  book = await import('../support/address-book');
  const client: typeof DbModule = await import('@/lib/db/client');
  await client.getDb();
  closeDb = client.closeDb;
  routes = {
    create: (await import('@/app/api/event/route')).POST as Handler,
    update: (await import('@/app/api/event/update/route')).POST as Handler,
    remove: (await import('@/app/api/event/[id]/route')).DELETE as Handler,
    calendar: (await import('@/app/api/events/calendar/route')).GET as Handler,
    addContact: (await import('@/app/api/attendee/route')).POST as Handler,
  };
}, 60_000);

afterAll(async () => {
  await closeDb?.();
  await dropOwnDatabase?.();
  await smtp?.close();
});

const BERLIN = 'Europe/Berlin';
const unix = (dt: DateTime) => Math.floor(dt.toSeconds());

async function flush() {
  while ((await mail.deliverDueMail({ limit: 50 })).sent > 0);
}

function calendarPart(received: ParsedMail): string {
  const part = received.attachments.find((a) => a.mimeType.includes('calendar') || a.filename?.endsWith('.ics'));
  if (!part) throw new Error(`no calendar part in "${received.subject}"`);
  return part.content.toString('utf8');
}

function vevents(text: string): VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
}

const mailsTo = (to: string, subject: RegExp) => smtp.messages.filter((m) => m.envelope.to.includes(to) && subject.test(m.subject));

describe('meeting mail with .ics files', () => {
  it('invitation (REQUEST, TZID + VTIMEZONE, RRULE, SEQUENCE 0), one-occurrence update (RECURRENCE-ID), cancellation (CANCEL)', async () => {
    const as = await book.owner({ firstName: 'Olga', lastName: 'Organizer' });
    const guest = `guest-${Date.now()}@mail.test`;
    const contact = `kontakt-${Date.now()}@mail.test`;
    await as.post(routes.addContact, { name: 'Karl Kontakt', email: contact, lang: 'de' });
    const start = DateTime.now().setZone(BERLIN).startOf('week').plus({ weeks: 2 }).set({ hour: 9 });
    const created = await as.post(routes.create, {
      title: 'Weekly planning',
      from: unix(start),
      duration: '0:30',
      timezone: BERLIN,
      repeatType: 'weekly',
      attendees: [guest, contact],
      showAttendees: true,
      description: 'Bring the numbers.',
    });
    expect(created.status).toBe(200);
    const event = created.json.event as { id: string; repeat: string };
    await flush();

    const [invitation] = mailsTo(guest, /^Invitation: Weekly planning$/);
    expect(invitation).toBeDefined();
    expect(invitation!.text).toContain('Olga Organizer invites you');
    // Issue 33: the text says the meeting repeats, not only the attached file.
    expect(invitation!.text).toContain('This meeting repeats: Every week, on Monday.');
    expect(invitation!.text).toContain('(Europe/Berlin)');
    expect(invitation!.text).toContain(contact);
    expect(invitation!.text).not.toContain('#k=');
    const ics = calendarPart(invitation!);
    expect(ics).toMatch(/^METHOD:REQUEST\r?$/m);
    expect(ics).toMatch(/^BEGIN:VTIMEZONE\r?\nTZID:Europe\/Berlin/m);
    expect(ics).toMatch(/^DTSTART;TZID=Europe\/Berlin:\d{8}T090000\r?$/m);
    const [master] = vevents(ics);
    expect(master).toMatchObject({ summary: 'Weekly planning', sequence: 0 });
    expect(master!.uid).toBe(`${event.id}@localhost`);
    expect(master!.start.tz).toBe(BERLIN);
    expect(master!.start.getTime()).toBe(start.toMillis());
    expect(master!.rrule?.toString()).toContain('FREQ=WEEKLY;BYDAY=MO');
    // The contact reads German.
    expect(mailsTo(contact, /^Einladung: Weekly planning$/)).toHaveLength(1);

    // One occurrence moves: an update with RECURRENCE-ID and a higher SEQUENCE.
    const list = (
      await support.call(routes.calendar, {
        cookies: support.sessionCookies(as.cookie),
        path: `/api/events/calendar?start=${unix(start.minus({ days: 1 }))}&end=${unix(start.plus({ weeks: 3 }))}`,
      })
    ).json as unknown as { id: string; from: number }[];
    const moved = await as.post(routes.update, {
      id: list[1]!.id,
      repeatUpdate: 0,
      title: 'Weekly planning',
      from: list[1]!.from + 3600,
      duration: '0:30',
      timezone: BERLIN,
      repeatType: 'weekly',
      attendees: [guest, contact],
    });
    expect(moved.status).toBe(200);
    await flush();
    const [update] = mailsTo(guest, /^Updated invitation: Weekly planning$/);
    const updateIcs = calendarPart(update!);
    expect(updateIcs).toMatch(/^METHOD:REQUEST\r?$/m);
    expect(updateIcs).toMatch(/^RECURRENCE-ID;TZID=Europe\/Berlin:\d{8}T090000\r?$/m);
    const [override] = vevents(updateIcs);
    expect(override).toMatchObject({ sequence: 1, uid: `${event.id}@localhost` });
    expect(override!.start.getTime()).toBe(start.plus({ weeks: 1, hours: 1 }).toMillis());
    expect(override!.recurrenceid?.getTime()).toBe(start.plus({ weeks: 1 }).toMillis());

    // The series is cancelled with a message: METHOD:CANCEL, STATUS:CANCELLED.
    const removed = await support.call(routes.remove, {
      method: 'DELETE',
      cookies: support.sessionCookies(as.cookie),
      params: { id: event.repeat },
      body: { message: 'The project is over.' },
    });
    expect(removed.status).toBe(200);
    await flush();
    const [cancellation] = mailsTo(guest, /^Cancelled: Weekly planning$/);
    expect(cancellation!.text).toContain('The project is over.');
    const cancelIcs = calendarPart(cancellation!);
    expect(cancelIcs).toMatch(/^METHOD:CANCEL\r?$/m);
    const cancelled = vevents(cancelIcs);
    expect(cancelled[0]).toMatchObject({ status: 'CANCELLED', sequence: 2, uid: `${event.id}@localhost` });
    // The moved occurrence travels with the series' cancellation.
    expect(cancelIcs).toMatch(/^RECURRENCE-ID;TZID=Europe\/Berlin:/m);
    expect(Object.keys(cancelled[0]!.recurrences ?? {}).length).toBeGreaterThan(0);
    // Nobody was mailed twice, and the organizer got no invitation.
    expect(mailsTo(guest, /^Invitation/)).toHaveLength(1);
    expect(mailsTo(as.user.email, /./)).toHaveLength(0);
  });

  it("a series' invitation says that it repeats, how and until when, in each reader's language (issue 33)", async () => {
    const as = await book.owner({ firstName: 'Rita', lastName: 'Repeat' });
    const guest = `series-${Date.now()}@mail.test`;
    const contact = `serie-${Date.now()}@mail.test`;
    await as.post(routes.addContact, { name: 'Dora Deutsch', email: contact, lang: 'de' });
    // A Tuesday at 10:00 in Berlin, two weeks ahead.
    const start = DateTime.now().setZone(BERLIN).startOf('week').plus({ weeks: 2, days: 1 }).set({ hour: 10 });
    const body = { duration: '0:30', timezone: BERLIN, repeatType: 'weekly', attendees: [guest, contact], from: unix(start) };

    // A weekly series that ends after 10 meetings: COUNT in the rule, "10 times" in the mail.
    const counted = await as.post(routes.create, { ...body, title: 'Counted weekly', repeatEnd: { type: 'count', count: 10 } });
    expect(counted.status).toBe(200);
    expect((counted.json.event as { rrule: string }).rrule).toBe('FREQ=WEEKLY;BYDAY=TU;COUNT=10');
    // On a date: UNTIL at the end of that day in Berlin.
    const last = start.plus({ weeks: 12 }).toISODate()!;
    const dated = await as.post(routes.create, { ...body, title: 'Dated weekly', repeatEnd: { type: 'until', date: last } });
    expect(dated.status).toBe(200);
    expect((dated.json.event as { rrule: string }).rrule).toMatch(/^FREQ=WEEKLY;BYDAY=TU;UNTIL=\d{8}T\d{6}Z$/);
    // An end before the start is refused on its field.
    const early = await as.post(routes.create, { ...body, title: 'Early end', repeatEnd: { type: 'until', date: start.minus({ weeks: 1 }).toISODate() } });
    expect(early.json).toMatchObject({ status: 'error', errorCode: 'incorrect_data', field: 'repeatEnd' });
    await flush();

    const [english] = mailsTo(guest, /^Invitation: Counted weekly$/);
    expect(english!.text).toContain('This meeting repeats: Every week, on Tuesday, 10 times.');
    const [german] = mailsTo(contact, /^Einladung: Counted weekly$/);
    expect(german!.text).toContain('Diese Besprechung wiederholt sich: Jede Woche, am Dienstag, 10 Mal.');
    expect(german!.html).toContain('Diese Besprechung wiederholt sich');

    const day = (locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${last}T12:00:00Z`));
    const [englishDated] = mailsTo(guest, /^Invitation: Dated weekly$/);
    expect(englishDated!.text).toContain(`This meeting repeats: Every week, on Tuesday, until ${day('en')}.`);
    const [germanDated] = mailsTo(contact, /^Einladung: Dated weekly$/);
    expect(germanDated!.text).toContain(`Diese Besprechung wiederholt sich: Jede Woche, am Dienstag, bis zum ${day('de')}.`);
    // The .ics carries the same end for calendar apps.
    expect(calendarPart(english!)).toMatch(/^RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10\r?$/m);
  });

  it('a reminder goes to the organizer and every attendee once, in their language, when it is due', async () => {
    const as = await book.owner({ lang: 'fr' });
    const guest = `reminded-${Date.now()}@mail.test`;
    const start = DateTime.now().plus({ days: 3 }).startOf('hour');
    const created = await as.post(routes.create, {
      title: 'Quarterly review',
      from: unix(start),
      duration: '1:00',
      timezone: 'America/New_York',
      attendees: [guest],
      notifications: [{ time: 1, timeType: 'hour' }],
    });
    expect(created.status).toBe(200);
    await flush();
    const due = start.minus({ hours: 1 }).toJSDate();
    expect(await reminders.deliverDueReminders({ now: new Date(due.getTime() - 1000) })).toBe(0);
    expect(await reminders.deliverDueReminders({ now: due })).toBe(2);
    expect(await reminders.deliverDueReminders({ now: due })).toBe(0);
    await flush();
    const toGuest = mailsTo(guest, /^Rappel : Quarterly review$/);
    expect(toGuest).toHaveLength(1);
    expect(toGuest[0]!.text).toContain('Votre réunion commence dans 1 heure.');
    expect(toGuest[0]!.text).toContain('(America/New_York)');
    expect(mailsTo(as.user.email, /^Rappel/)).toHaveLength(1);
  });
});
