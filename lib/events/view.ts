import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '@/lib/db/client';
import { eventAttendees, eventGroups, eventNotifications, rooms, type Event, type Room } from '@/lib/db/schema';
import type { CalendarOccurrence } from '@/lib/calendar/compact';
import { formatDuration } from './duration';
import { occurrenceId } from './find';
import type { Occurrence, OccurrenceTimes } from './occurrences';

type Db = Database | Transaction;
const unix = (date: Date) => Math.floor(date.getTime() / 1000);
type RoomSummary = Pick<Room, 'id' | 'name' | 'color'> | null;

/** The columns of an event that its occurrences show. */
export type OccurrenceEvent = Pick<Event, 'id' | 'rrule' | 'repeat' | 'repeatType' | 'title' | 'description' | 'timezone' | 'link'>;

const ms = (date: Date | number) => (typeof date === 'number' ? date : date.getTime());

/** One meeting of the calendar: a single event, or one occurrence of a series. */
export function occurrenceView(
  event: OccurrenceEvent,
  occurrence: Occurrence | OccurrenceTimes,
  room: RoomSummary,
  now: Date | number = Date.now(),
): CalendarOccurrence {
  const e = occurrence.exception;
  const [originalStart, start, end] = [ms(occurrence.originalStart), ms(occurrence.start), ms(occurrence.end)];
  return {
    id: event.rrule ? occurrenceId(event.id, originalStart) : event.id,
    eventId: event.id,
    repeat: event.repeat,
    repeatType: event.repeatType,
    occurrence: Math.floor(originalStart / 1000),
    title: e?.title ?? event.title,
    description: e?.description ?? event.description,
    from: Math.floor(start / 1000),
    to: Math.floor(end / 1000),
    duration: formatDuration((end - start) / 60_000),
    timezone: event.timezone,
    room,
    link: event.link,
    isException: e !== null,
    // SPEC point 4: past when its start is before now (the same instant in its own zone).
    isPast: start < ms(now),
  };
}
export type OccurrenceView = CalendarOccurrence;

/** An event with everything the wizard edits; never its password hash. */
export async function eventDetails(db: Db, event: Event, now = new Date()) {
  const [people, groupRows, notifications, roomRows] = await Promise.all([
    db.select().from(eventAttendees).where(eq(eventAttendees.eventId, event.id)),
    db.select({ id: eventGroups.groupId }).from(eventGroups).where(eq(eventGroups.eventId, event.id)),
    db.select().from(eventNotifications).where(eq(eventNotifications.eventId, event.id)),
    event.roomId ? db.select().from(rooms).where(eq(rooms.id, event.roomId)) : Promise.resolve([]),
  ]);
  const room = roomRows[0];
  return {
    id: event.id,
    repeat: event.repeat,
    title: event.title,
    description: event.description,
    from: unix(event.startsAt),
    to: unix(event.startsAt) + event.durationMinutes * 60,
    duration: formatDuration(event.durationMinutes),
    timezone: event.timezone,
    repeatType: event.repeatType,
    repeatCustom: event.repeatCustom,
    rrule: event.rrule,
    endsAt: event.endsAt ? unix(event.endsAt) : null,
    showAttendees: event.showAttendees,
    attendees: people
      .sort((a, b) => (a.role === b.role ? a.email.localeCompare(b.email) : a.role === 'organizer' ? -1 : 1))
      .map((p) => ({ email: p.email, name: p.name, role: p.role, isContact: p.attendeeId !== null, isUser: p.userId !== null })),
    groups: groupRows.map((g) => g.id),
    passwordMode: event.passwordMode,
    // The room's password protects the meeting (docs/decisions.md).
    hasPassword: room?.passwordHash != null,
    notifications: notifications
      .map((n) => ({ type: n.type, time: n.time, timeType: n.timeType }))
      .sort((a, b) => a.time * (a.timeType === 'day' ? 1440 : a.timeType === 'hour' ? 60 : 1) - b.time * (b.timeType === 'day' ? 1440 : b.timeType === 'hour' ? 60 : 1)),
    roomId: event.roomId,
    room: room ? { id: room.id, name: room.name, color: room.color } : null,
    link: event.link,
    sequence: event.sequence,
    isPast: (event.endsAt ?? new Date(8.64e15)) < now,
  };
}
export type EventDetails = Awaited<ReturnType<typeof eventDetails>>;
