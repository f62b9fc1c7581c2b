// A series as recurrence sees it: its first start, zone, length and rule. Pure.
import type { Event } from '@/lib/db/schema';

export interface Series {
  /** DTSTART as an instant. */
  start: Date;
  timezone: string;
  durationMinutes: number;
  /** The RRULE without DTSTART, or null for a single meeting. UNTIL, if any, is UTC. */
  rrule: string | null;
}

export function seriesOf(event: Pick<Event, 'startsAt' | 'timezone' | 'durationMinutes' | 'rrule'>): Series {
  return { start: event.startsAt, timezone: event.timezone, durationMinutes: event.durationMinutes, rrule: event.rrule };
}
