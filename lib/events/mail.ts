import 'server-only';
import { and, eq } from 'drizzle-orm';
import { config } from '@/lib/environment';
import type { Transaction } from '@/lib/db/client';
import { eventExceptions, users, type Event, type EventException } from '@/lib/db/schema';
import { htmlLang } from '@/lib/i18n/locales';
import { enqueueMail } from '@/lib/mail';
import { clockFormat } from '@/lib/time/clock';
import type { EventMailData } from '@/lib/mail/templates';
import { seriesOf } from '@/lib/recurrence/series';
import { buildIcs, type IcsEvent, type IcsMethod } from './ics/build-ics';
import type { Occurrence } from '@/lib/recurrence/exceptions';
import type { Participant } from './participants';

/** "Monday, 23 March 2026, 09:00 – 09:30 (Europe/Berlin)" in the reader's language. */
export function formatWhen(start: Date, end: Date, timeZone: string, locale: Parameters<typeof htmlLang>[0]): string {
  const tag = htmlLang(locale);
  // The reader's language decides the clock, as on screen (lib/time/clock.ts).
  const day = clockFormat(tag, timeZone, 'full').format(start);
  const until = clockFormat(tag, timeZone).format(end);
  return `${day} – ${until} (${timeZone})`;
}

const host = () => new URL(config.appUrl).hostname;
export const icsUid = (eventId: string) => `${eventId}@${host()}`;

async function organizerOf(tx: Transaction, event: Event) {
  const [owner] = await tx.select().from(users).where(eq(users.id, event.ownerId));
  return { name: owner ? `${owner.firstName} ${owner.lastName}`.trim() : config.brandName, email: owner?.email ?? '' };
}

/** The ICS components of a whole event: the master (RRULE, EXDATE) and each changed occurrence. */
export async function eventComponents(tx: Transaction, event: Event, participants: Participant[]): Promise<IcsEvent[]> {
  const organizer = await organizerOf(tx, event);
  const exceptions = event.rrule ? await tx.select().from(eventExceptions).where(eq(eventExceptions.eventId, event.id)) : [];
  const base = {
    uid: icsUid(event.id),
    sequence: event.sequence,
    timezone: event.timezone,
    link: event.link,
    organizer,
    attendees: participants.filter((p) => p.role === 'attendee'),
  };
  const end = (start: Date, minutes: number) => new Date(start.getTime() + minutes * 60_000);
  const master: IcsEvent = {
    ...base,
    title: event.title,
    description: event.description,
    start: event.startsAt,
    end: end(event.startsAt, event.durationMinutes),
    rrule: event.rrule,
    exdates: exceptions.filter((e) => e.cancelled).map((e) => e.originalStart),
  };
  const overrides = exceptions.filter((e) => !e.cancelled).map((e) => ({ ...occurrenceComponent(event, e), ...base }));
  return [master, ...overrides.map((o) => ({ ...o, organizer, attendees: base.attendees }))];
}

function occurrenceComponent(event: Event, e: EventException) {
  const start = e.startsAt ?? e.originalStart;
  return {
    title: e.title ?? event.title,
    description: e.description ?? event.description,
    start,
    end: new Date(start.getTime() + (e.durationMinutes ?? event.durationMinutes) * 60_000),
    recurrenceId: e.originalStart,
  };
}

/** The ICS component of one occurrence (RECURRENCE-ID), for its update or cancellation. */
export async function occurrenceComponents(tx: Transaction, event: Event, occurrence: Occurrence, participants: Participant[]): Promise<IcsEvent[]> {
  const organizer = await organizerOf(tx, event);
  const e = occurrence.exception;
  return [
    {
      uid: icsUid(event.id),
      sequence: event.sequence,
      timezone: event.timezone,
      link: event.link,
      organizer,
      attendees: participants.filter((p) => p.role === 'attendee'),
      title: e?.title ?? event.title,
      description: e?.description ?? event.description,
      start: occurrence.start,
      end: occurrence.end,
      recurrenceId: occurrence.originalStart,
    },
  ];
}

export type EventMailKind = 'eventInvitation' | 'eventUpdate' | 'eventCancellation';
const methodOf: Record<EventMailKind, IcsMethod> = {
  eventInvitation: 'REQUEST',
  eventUpdate: 'REQUEST',
  eventCancellation: 'CANCEL',
};

/**
 * Queues one mail per attendee (not the organizer) in the transaction of the change, each with
 * the .ics file. Sent only while the meeting (or series) is still to come.
 */
export async function mailAttendees(
  tx: Transaction,
  kind: EventMailKind,
  event: Event,
  recipients: Participant[],
  components: IcsEvent[],
  options: { message?: string; now?: Date } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  const attendees = recipients.filter((p) => p.role === 'attendee');
  const first = components[0];
  if (!attendees.length || !first) return;
  if (event.endsAt && event.endsAt < now && !first.recurrenceId) return;
  if (first.recurrenceId && first.end < now) return;
  const ics = buildIcs(methodOf[kind], components, { productName: config.brandName });
  const organizer = first.organizer.name;
  const attendeeList = event.showAttendees ? attendees.map((a) => (a.name ? `${a.name} <${a.email}>` : a.email)).join(', ') : null;
  for (const person of attendees) {
    const data: EventMailData = {
      title: first.title,
      organizer,
      when: formatWhen(first.start, first.end, event.timezone, person.lang),
      link: event.link,
      description: first.description,
      attendees: attendeeList,
      hasPassword: event.passwordMode !== 'none',
      // The whole series' mail says that it repeats and how; one occurrence's mail does not.
      repeat: event.rrule && !first.recurrenceId ? { rrule: event.rrule, timezone: event.timezone } : null,
    };
    await enqueueMail(tx, {
      to: person.email,
      locale: person.lang,
      ...(kind === 'eventCancellation' ? { template: kind, data: { ...data, message: options.message } } : { template: kind, data }),
      idempotencyKey: `${kind}:${event.id}:${event.sequence}:${first.recurrenceId?.getTime() ?? 'all'}:${person.email}`,
      attachments: [
        {
          filename: kind === 'eventCancellation' ? 'cancel.ics' : 'invite.ics',
          content: ics,
          contentType: `text/calendar; charset=utf-8; method=${methodOf[kind]}`,
        },
      ],
    });
  }
}

/** The text of an occurrence for a reminder mail. */
export async function reminderData(
  tx: Transaction,
  event: Event,
  reminder: { occurrenceStart: Date; startsAt: Date; locale: Participant['lang'] },
): Promise<Omit<EventMailData, 'organizer'> & { organizer: string }> {
  const [exception] = await tx
    .select()
    .from(eventExceptions)
    .where(and(eq(eventExceptions.eventId, event.id), eq(eventExceptions.originalStart, reminder.occurrenceStart)));
  const organizer = await organizerOf(tx, event);
  const minutes = exception?.durationMinutes ?? seriesOf(event).durationMinutes;
  return {
    title: exception?.title ?? event.title,
    organizer: organizer.name,
    when: formatWhen(reminder.startsAt, new Date(reminder.startsAt.getTime() + minutes * 60_000), event.timezone, reminder.locale),
    link: event.link,
    description: exception?.description ?? event.description,
    hasPassword: event.passwordMode !== 'none',
  };
}
