// The database side of a calendar window: the series that reach it, their exceptions, expanded.
import 'server-only';
import { and, eq, gt, gte, isNull, lt, or } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { eventExceptions, events, rooms, type EventException, type User } from '@/lib/db/schema';
import { expandSeriesTimes } from '@/lib/recurrence/exceptions';
import { seriesOf } from '@/lib/recurrence/series';
import type { WindowSeries } from './views/window';

const DAY_MS = 86_400_000;

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
                and(
                  gte(eventExceptions.originalStart, new Date(from.getTime() - 2 * DAY_MS)),
                  lt(eventExceptions.originalStart, new Date(to.getTime() + 2 * DAY_MS)),
                ),
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
