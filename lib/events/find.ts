import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import { ApiError } from '@/lib/api/errors';
import type { Database, Transaction } from '@/lib/db/client';
import { events, type Event } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';

type Db = Database | Transaction;

/**
 * An id of the API: an event ({uuid}), or one occurrence of a series ({uuid}_{original start in
 * unix seconds}), as GET /api/events/calendar answers them.
 */
export function parseEventId(id: string): { eventId: string; occurrence: Date | null } | null {
  const match = /^([0-9a-f-]{36})(?:_(\d{1,12}))?$/i.exec(id);
  if (!match || !isUuid(match[1]!)) return null;
  return { eventId: match[1]!.toLowerCase(), occurrence: match[2] ? new Date(Number(match[2]) * 1000) : null };
}

export function occurrenceId(eventId: string, originalStart: Date | number): string {
  return `${eventId}_${Math.floor((typeof originalStart === 'number' ? originalStart : originalStart.getTime()) / 1000)}`;
}

/** The user's own event that is not cancelled; anything else answers event_not_found. */
export async function findOwnEvent(db: Db, ownerId: string, eventId: string, options: { lock?: boolean } = {}): Promise<Event> {
  if (!isUuid(eventId)) throw new ApiError('event_not_found');
  const query = db
    .select()
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.ownerId, ownerId), isNull(events.cancelledAt)));
  const [event] = options.lock ? await query.for('update') : await query;
  if (!event) throw new ApiError('event_not_found');
  return event;
}
