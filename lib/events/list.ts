import 'server-only';
import { and, asc, eq, gt, gte, isNull, lt, or } from 'drizzle-orm';
import { ApiError } from '@/lib/api/errors';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { eventExceptions, events, rooms, type Event, type EventException, type User } from '@/lib/db/schema';
import { findOwnEvent, parseEventId, seriesOf } from './find';
import { expandSeries, expandSeriesTimes } from './occurrences';
import { eventDetails, occurrenceView, type OccurrenceView } from './view';

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

const byTitle = new Intl.Collator();

/**
 * The occurrences of the user's meetings that overlap [from, to), by start. Only series that can
 * reach the window are read (start before its end, last occurrence after its start), only the
 * columns the calendar shows, and only the window is expanded — in ms, without a Date per
 * occurrence. A month of 1,000 series of every repeat type is ~11,000 occurrences.
 */
export async function occurrencesBetween(user: Pick<User, 'id'>, from: Date, to: Date, now = new Date()): Promise<OccurrenceView[]> {
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
  const [fromMs, toMs, nowMs] = [from.getTime(), to.getTime(), now.getTime()];
  const result: OccurrenceView[] = [];
  for (const { event, room } of rows) {
    for (const occurrence of expandSeriesTimes(seriesOf(event), byEvent.get(event.id) ?? [], fromMs, toMs)) {
      result.push(occurrenceView(event, occurrence, room, nowMs));
    }
  }
  // By start, then by title: the few distinct titles are collated once, not at every tie.
  const titles = [...new Set(result.map((o) => o.title))].sort(byTitle.compare);
  const rank = new Map<string, number>();
  titles.forEach((title, i) => rank.set(title, i > 0 && byTitle.compare(titles[i - 1]!, title) === 0 ? rank.get(titles[i - 1]!)! : i));
  return result.sort((a, b) => a.from - b.from || rank.get(a.title)! - rank.get(b.title)!);
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
