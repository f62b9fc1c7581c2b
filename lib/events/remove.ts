import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb, type Transaction } from '@/lib/db/client';
import { lockOwner } from '@/lib/db/owner-lock';
import { eventExceptions, eventReminders, events, type Event, type User } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { kickMailWorker } from '@/lib/mail';
import { findOwnEvent } from './find';
import { parseEventId } from '@/lib/event-rules/ids';
import { findOccurrence } from './find-occurrence';
import { eventComponents, mailAttendees, occurrenceComponents } from './mail';
import { loadParticipants } from './participants';
import { dropOccurrenceReminders } from './reminders';

/**
 * DELETE /api/event/{id} (SPEC points 4 and 7): an occurrence id cancels that occurrence (EXDATE),
 * an event id the meeting or that series, a repeat uid every part of the series ("all events").
 * Attendees get the cancellation (METHOD:CANCEL) with the optional message; reminders not sent
 * yet are dropped. Cancelled meetings stay in the database, so that a late reminder or a room
 * check knows them, but no list shows them.
 */
export async function removeEvent(user: User, id: string, message?: string): Promise<{ removed: number }> {
  const parsed = parseEventId(id);
  if (!parsed && !isUuid(id)) throw new ApiError('event_not_found');
  const now = new Date();
  const db = await getDb();
  const removed = await db.transaction(async (tx) => {
    await lockOwner(tx, user.id);
    if (parsed?.occurrence) {
      const event = await findOwnEvent(tx, user.id, parsed.eventId, { lock: true });
      await cancelOccurrence(tx, event, parsed.occurrence, message, now);
      return 1;
    }
    const key = (parsed?.eventId ?? id).toLowerCase();
    const byId = await tx
      .select()
      .from(events)
      .where(and(eq(events.ownerId, user.id), eq(events.id, key), isNull(events.cancelledAt)));
    const targets = byId.length
      ? byId
      : await tx
          .select()
          .from(events)
          .where(and(eq(events.ownerId, user.id), eq(events.repeat, key), isNull(events.cancelledAt)));
    if (!targets.length) throw new ApiError('event_not_found');
    for (const event of targets) await cancelEvent(tx, event, message, now);
    return targets.length;
  });
  kickMailWorker();
  return { removed };
}

async function cancelEvent(tx: Transaction, event: Event, message: string | undefined, now: Date) {
  const [cancelled] = await tx
    .update(events)
    .set({ cancelledAt: sql`now()`, sequence: event.sequence + 1, updatedAt: sql`now()` })
    .where(eq(events.id, event.id))
    .returning();
  await tx.delete(eventReminders).where(and(eq(eventReminders.eventId, event.id), eq(eventReminders.status, 'pending')));
  const people = await loadParticipants(tx, event.id);
  await mailAttendees(tx, 'eventCancellation', cancelled!, people, await eventComponents(tx, cancelled!, people), { message, now });
}

async function cancelOccurrence(tx: Transaction, event: Event, originalStart: Date, message: string | undefined, now: Date) {
  const occurrence = await findOccurrence(tx, event, originalStart);
  if (!occurrence) throw new ApiError('event_not_found');
  await tx
    .insert(eventExceptions)
    .values({ eventId: event.id, originalStart, cancelled: true })
    .onConflictDoUpdate({ target: [eventExceptions.eventId, eventExceptions.originalStart], set: { cancelled: true } });
  const [updated] = await tx
    .update(events)
    .set({ sequence: event.sequence + 1, updatedAt: sql`now()` })
    .where(eq(events.id, event.id))
    .returning();
  await dropOccurrenceReminders(tx, event.id, originalStart);
  const people = await loadParticipants(tx, event.id);
  await mailAttendees(tx, 'eventCancellation', updated!, people, await occurrenceComponents(tx, updated!, occurrence, people), {
    message,
    now,
  });
}
