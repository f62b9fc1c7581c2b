import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import type { Database, Transaction } from '@/lib/db/client';
import { events, type Event } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';

type Db = Database | Transaction;

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
