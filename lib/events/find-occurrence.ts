// One occurrence of a series by its original start, with its exception (RECURRENCE-ID).
import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Database, Transaction } from '@/lib/db/client';
import { eventExceptions, type Event } from '@/lib/db/schema';
import { expandSeries } from '@/lib/recurrence/exceptions';
import { seriesOf } from '@/lib/recurrence/series';

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
  return (
    expandSeries(seriesOf(event), exceptions, moved, new Date(moved.getTime() + 1)).find((o) => o.originalStart.getTime() === originalStart.getTime()) ?? null
  );
}
