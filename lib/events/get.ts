// GET /api/event/{id}: one event, or one occurrence with its series' details.
import 'server-only';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import type { Event, User } from '@/lib/db/schema';
import { eventDetails } from './details';
import { findOwnEvent } from './find';
import { findOccurrence } from './find-occurrence';
import { parseEventId } from '@/lib/event-rules/ids';
import { occurrenceView } from './views/occurrence';

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
