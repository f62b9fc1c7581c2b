import 'server-only';
import { and, asc, eq, gt, gte, isNull, lt, or } from 'drizzle-orm';
import { ApiError } from '@/lib/api/errors';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { eventExceptions, events, rooms, type Event, type EventException, type User } from '@/lib/db/schema';
import { findOwnEvent, parseEventId } from './find';
import { seriesOf } from './recurrence/series';
import { sortOccurrences, type CompactCalendar, type CompactChange, type CompactSeries } from '@/lib/calendar/compact';
import { expandSeries, expandSeriesTimes, type OccurrenceTimes } from './occurrences';
import { eventDetails, occurrenceView, type OccurrenceEvent, type OccurrenceView } from './view';

const DAY_MS = 86_400_000;

/** GET /api/events: the user's meetings and series that are not cancelled, by start. */
export async function listEvents(user: User) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(events)
    .where(and(eq(events.ownerId, user.id), isNull(events.cancelledAt)))
    .orderBy(asc(events.startsAt));
  return Promise.all(rows.map((event) => eventDetails(db, event)));
}

/** A series (or single meeting) with the columns the calendar shows, and its occurrences in a window. */
export interface WindowSeries {
  event: OccurrenceEvent & { startsAt: Date; durationMinutes: number };
  room: { id: string; name: string; color: number } | null;
  /** Overlapping the window, by start (exceptions applied, cancelled ones left out). */
  occurrences: OccurrenceTimes<EventException>[];
}

/**
 * The user's meetings that overlap [from, to), each with its occurrences. Only series that can
 * reach the window are read (start before its end, last occurrence after its start), only the
 * columns the calendar shows, and only the window is expanded — in ms, without a Date per
 * occurrence. A month of 1,000 series of every repeat type is ~11,000 occurrences.
 */
export async function expandWindow(user: Pick<User, 'id'>, from: Date, to: Date): Promise<WindowSeries[]> {
  const db = await getDb();
  const rows = await db
    .select({
      event: {
        id: events.id,
        rrule: events.rrule,
        repeat: events.repeat,
        repeatType: events.repeatType,
        title: events.title,
        description: events.description,
        timezone: events.timezone,
        link: events.link,
        startsAt: events.startsAt,
        durationMinutes: events.durationMinutes,
      },
      room: { id: rooms.id, name: rooms.name, color: rooms.color },
    })
    .from(events)
    .leftJoin(rooms, eq(rooms.id, events.roomId))
    .where(
      and(
        eq(events.ownerId, user.id),
        isNull(events.cancelledAt),
        lt(events.startsAt, new Date(to.getTime() + DAY_MS)),
        or(isNull(events.endsAt), gt(events.endsAt, new Date(from.getTime() - DAY_MS))),
      ),
    );
  // Exceptions of the user's series near the window: by where the rule put them, or where they
  // were moved to (a join on the owner, not a list of a thousand ids).
  const exceptions: EventException[] = rows.some((r) => r.event.rrule)
    ? (
        await db
          .select({ exception: eventExceptions })
          .from(eventExceptions)
          .innerJoin(events, eq(events.id, eventExceptions.eventId))
          .where(
            and(
              eq(events.ownerId, user.id),
              isNull(events.cancelledAt),
              or(
                and(gte(eventExceptions.originalStart, new Date(from.getTime() - 2 * DAY_MS)), lt(eventExceptions.originalStart, new Date(to.getTime() + 2 * DAY_MS))),
                and(gte(eventExceptions.startsAt, new Date(from.getTime() - DAY_MS)), lt(eventExceptions.startsAt, new Date(to.getTime() + DAY_MS))),
              ),
            ),
          )
      ).map((r) => r.exception)
    : [];
  const byEvent = new Map<string, EventException[]>();
  for (const e of exceptions) {
    const list = byEvent.get(e.eventId);
    if (list) list.push(e);
    else byEvent.set(e.eventId, [e]);
  }
  const [fromMs, toMs] = [from.getTime(), to.getTime()];
  const result: WindowSeries[] = [];
  for (const { event, room } of rows) {
    const occurrences = expandSeriesTimes(seriesOf(event), byEvent.get(event.id) ?? [], fromMs, toMs);
    if (occurrences.length) result.push({ event, room, occurrences });
  }
  return result;
}

/** The full form: one view per occurrence, by start then title. */
export function windowViews(series: readonly WindowSeries[], now: Date | number = Date.now()): OccurrenceView[] {
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const result: OccurrenceView[] = [];
  for (const { event, room, occurrences } of series) {
    for (const occurrence of occurrences) result.push(occurrenceView(event, occurrence, room, nowMs));
  }
  return sortOccurrences(result);
}

/** The compact form (lib/calendar/compact.ts): each series once, its unchanged occurrences as start times. */
export function windowCompact(series: readonly WindowSeries[], from: Date, to: Date): CompactCalendar {
  const rooms: CompactCalendar['rooms'] = {};
  const list: CompactSeries[] = [];
  for (const { event, room, occurrences } of series) {
    if (room) rooms[room.id] ??= { name: room.name, color: room.color };
    const starts: number[] = [];
    const changed: CompactChange[] = [];
    for (const o of occurrences) {
      const e = o.exception;
      if (!e) {
        starts.push(Math.floor(o.start / 1000));
        continue;
      }
      changed.push({
        occurrence: Math.floor(o.originalStart / 1000),
        from: Math.floor(o.start / 1000),
        to: Math.floor(o.end / 1000),
        ...(e.title !== null && { title: e.title }),
        ...(e.description !== null && { description: e.description }),
      });
    }
    list.push({
      eventId: event.id,
      repeat: event.repeat,
      repeatType: event.repeatType,
      recurring: event.rrule !== null,
      title: event.title,
      description: event.description,
      timezone: event.timezone,
      roomId: room?.id ?? null,
      link: event.link,
      minutes: event.durationMinutes,
      starts,
      ...(changed.length && { changed }),
    });
  }
  return { form: 'compact', start: Math.floor(from.getTime() / 1000), end: Math.floor(to.getTime() / 1000), rooms, series: list };
}

/** The occurrences of the user's meetings that overlap [from, to), by start (the full form). */
export async function occurrencesBetween(user: Pick<User, 'id'>, from: Date, to: Date, now = new Date()): Promise<OccurrenceView[]> {
  return windowViews(await expandWindow(user, from, to), now);
}

export const UPCOMING_DAYS = 30;
export const UPCOMING_LIMIT = 20;

/** GET /api/events/upcoming: what has not ended yet in the next 30 days, at most 20. */
export async function upcomingEvents(user: User, now = new Date()): Promise<OccurrenceView[]> {
  const list = await occurrencesBetween(user, now, new Date(now.getTime() + UPCOMING_DAYS * DAY_MS), now);
  return list.slice(0, UPCOMING_LIMIT);
}

/** GET /api/event/{id}: an event, or one occurrence of a series with the series' details. */
export async function getEvent(user: User, id: string) {
  const parsed = parseEventId(id);
  if (!parsed) throw new ApiError('event_not_found');
  const db = await getDb();
  const event: Event = await findOwnEvent(db, user.id, parsed.eventId);
  const details = await eventDetails(db, event);
  if (!parsed.occurrence) return details;
  const occurrence = await findOccurrence(db, event, parsed.occurrence);
  if (!occurrence) throw new ApiError('event_not_found');
  return { ...details, occurrence: occurrenceView(event, occurrence, details.room) };
}

/** The occurrence of a series with the original start `originalStart`, or null. */
export async function findOccurrence(db: Database | Transaction, event: Event, originalStart: Date) {
  if (!event.rrule) return null;
  const exceptions = await db
    .select()
    .from(eventExceptions)
    .where(and(eq(eventExceptions.eventId, event.id), eq(eventExceptions.originalStart, originalStart)));
  const found = expandSeries(seriesOf(event), exceptions, new Date(originalStart.getTime() - 1), new Date(originalStart.getTime() + 1));
  const byOriginal = found.find((o) => o.originalStart.getTime() === originalStart.getTime());
  if (byOriginal) return byOriginal;
  // Moved far away: expand around where it went.
  const moved = exceptions[0]?.startsAt;
  if (!moved || exceptions[0]?.cancelled) return null;
  return expandSeries(seriesOf(event), exceptions, moved, new Date(moved.getTime() + 1)).find((o) => o.originalStart.getTime() === originalStart.getTime()) ?? null;
}
