// iCalendar files (RFC 5545 / iTIP RFC 5546) through ical-generator: times with TZID and a
// VTIMEZONE, RRULE and EXDATE for a series, RECURRENCE-ID for one changed occurrence, SEQUENCE,
// METHOD:REQUEST for invitations and updates, METHOD:CANCEL for cancellations.
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
// luxon only as ical-generator's zoned date type; the zone arithmetic is lib/time's.
import { DateTime } from 'luxon';
import { toFloating } from '@/lib/time/floating';
import { formatFloating } from '@/lib/recurrence/build-rule';
import { vtimezone } from './vtimezone';

export interface IcsEvent {
  uid: string;
  sequence: number;
  title: string;
  description?: string | null;
  /** The meeting link (never an encryption key: see docs/e2ee-crypto.md). */
  link?: string | null;
  start: Date;
  end: Date;
  timezone: string;
  rrule?: string | null;
  /** Cancelled occurrences of a series. */
  exdates?: Date[];
  /** For one occurrence of a series: its original start. */
  recurrenceId?: Date | null;
  organizer: { name: string; email: string };
  attendees: { email: string; name?: string | null }[];
  cancelled?: boolean;
}

export type IcsMethod = 'REQUEST' | 'CANCEL' | 'PUBLISH';

const methods = {
  REQUEST: ICalCalendarMethod.REQUEST,
  CANCEL: ICalCalendarMethod.CANCEL,
  PUBLISH: ICalCalendarMethod.PUBLISH,
} as const;

/** An EXDATE's wall clock in the event's zone (with TZID). */
function tzid(date: Date, zone: string): string {
  return formatFloating(toFloating(date.getTime(), zone));
}

/** One calendar with its events, as the text of an .ics file. */
export function buildIcs(method: IcsMethod, events: IcsEvent[], options: { name?: string; productName?: string } = {}): string {
  const calendar = ical({
    name: options.name,
    method: methods[method],
    prodId: { company: options.productName ?? 'Enclave', product: 'Calendar', language: 'EN' },
  });
  const zones = new Set(events.map((e) => e.timezone));
  // ical-generator asks the generator for the VTIMEZONE of every zone that an event uses.
  const [firstZone] = zones;
  if (firstZone) calendar.timezone({ name: firstZone, generator: (zone) => vtimezone(zone) });
  for (const event of events) {
    const zone = event.timezone;
    const repeating = event.rrule
      ? [`RRULE:${event.rrule}`, ...(event.exdates?.length ? [`EXDATE;TZID=${zone}:${event.exdates.map((d) => tzid(d, zone)).join(',')}`] : [])].join('\r\n')
      : null;
    calendar.createEvent({
      id: event.uid,
      sequence: event.sequence,
      summary: event.title,
      description: [event.description, event.link].filter(Boolean).join('\n\n') || undefined,
      location: event.link ?? undefined,
      url: event.link ?? undefined,
      start: DateTime.fromJSDate(event.start, { zone }),
      end: DateTime.fromJSDate(event.end, { zone }),
      timezone: zone,
      repeating,
      recurrenceId: event.recurrenceId ? DateTime.fromJSDate(event.recurrenceId, { zone }) : null,
      status: event.cancelled || method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      organizer: event.organizer,
      attendees: event.attendees.map((a) => ({
        email: a.email,
        name: a.name ?? undefined,
        rsvp: method === 'REQUEST',
        role: ICalAttendeeRole.REQ,
        status: ICalAttendeeStatus.NEEDSACTION,
      })),
    });
  }
  return calendar.toString();
}
