// One meeting of the calendar as the API answers it (SPEC point 7). Pure.
import type { CalendarOccurrence } from '@/lib/calendar/compact';
import type { Event, Room } from '@/lib/db/schema';
import type { Occurrence, OccurrenceTimes } from '@/lib/recurrence/exceptions';
import { formatDuration } from '@/lib/event-rules/duration';
import { occurrenceId } from '@/lib/event-rules/ids';

type RoomSummary = Pick<Room, 'id' | 'name' | 'color'> | null;

/** The columns of an event that its occurrences show. */
export type OccurrenceEvent = Pick<Event, 'id' | 'rrule' | 'repeat' | 'repeatType' | 'title' | 'description' | 'timezone' | 'link'>;

const ms = (date: Date | number) => (typeof date === 'number' ? date : date.getTime());

/** One meeting of the calendar: a single event, or one occurrence of a series. */
export function occurrenceView(
  event: OccurrenceEvent,
  occurrence: Occurrence | OccurrenceTimes,
  room: RoomSummary,
  now: Date | number = Date.now(),
): CalendarOccurrence {
  const e = occurrence.exception;
  const [originalStart, start, end] = [ms(occurrence.originalStart), ms(occurrence.start), ms(occurrence.end)];
  return {
    id: event.rrule ? occurrenceId(event.id, originalStart) : event.id,
    eventId: event.id,
    repeat: event.repeat,
    repeatType: event.repeatType,
    occurrence: Math.floor(originalStart / 1000),
    title: e?.title ?? event.title,
    description: e?.description ?? event.description,
    from: Math.floor(start / 1000),
    to: Math.floor(end / 1000),
    duration: formatDuration((end - start) / 60_000),
    timezone: event.timezone,
    room,
    link: event.link,
    isException: e !== null,
    // SPEC point 4: past when its start is before now (the same instant in its own zone).
    isPast: start < ms(now),
  };
}
export type OccurrenceView = CalendarOccurrence;
