// GET /api/events and /api/events/upcoming.
import 'server-only';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { events, type User } from '@/lib/db/schema';
import { eventDetails } from './details';
import { expandWindow } from './load-window';
import type { OccurrenceView } from './views/occurrence';
import { windowViews } from './views/window';

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
