// An event with everything the wizard edits, read with its attendees, groups, reminders and room.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '@/lib/db/client';
import { eventAttendees, eventGroups, eventNotifications, rooms, type Event } from '@/lib/db/schema';
import { formatDuration } from '@/lib/event-rules/duration';
import { ruleOf } from '@/lib/recurrence/describe';

type Db = Database | Transaction;
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

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
    // How the series ends, read back from its rule (the wizard's "Ends" for the plain types).
    repeatEnd: event.rrule ? (ruleOf(event.rrule, event.timezone)?.end ?? null) : null,
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
      .sort(
        (a, b) =>
          a.time * (a.timeType === 'day' ? 1440 : a.timeType === 'hour' ? 60 : 1) - b.time * (b.timeType === 'day' ? 1440 : b.timeType === 'hour' ? 60 : 1),
      ),
    roomId: event.roomId,
    room: room ? { id: room.id, name: room.name, color: room.color } : null,
    link: event.link,
    sequence: event.sequence,
    isPast: (event.endsAt ?? new Date(8.64e15)) < now,
  };
}
export type EventDetails = Awaited<ReturnType<typeof eventDetails>>;
