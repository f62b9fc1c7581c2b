// The ids of the API: an event, or one occurrence of a series. Pure.
import { isUuid } from '@/lib/db/uuid';

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
