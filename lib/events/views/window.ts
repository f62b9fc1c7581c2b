// A calendar window in the API's two forms (docs/calendar.md "The calendar answer"). Pure.
import { sortOccurrences, type CompactCalendar, type CompactChange, type CompactSeries } from '@/lib/calendar/compact';
import type { EventException } from '@/lib/db/schema';
import type { OccurrenceTimes } from '@/lib/recurrence/exceptions';
import { occurrenceView, type OccurrenceEvent, type OccurrenceView } from './occurrence';

/** A series (or single meeting) with the columns the calendar shows, and its occurrences in a window. */
export interface WindowSeries {
  event: OccurrenceEvent & { startsAt: Date; durationMinutes: number };
  room: { id: string; name: string; color: number } | null;
  /** Overlapping the window, by start (exceptions applied, cancelled ones left out). */
  occurrences: OccurrenceTimes<EventException>[];
}

/** The full form: one view per occurrence, by start then title. */
export function windowViews(series: readonly WindowSeries[], now: Date | number = Date.now()): OccurrenceView[] {
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const result: OccurrenceView[] = [];
  for (const { event, room, occurrences } of series) {
    for (const occurrence of occurrences) result.push(occurrenceView(event, occurrence, room, nowMs));
  }
  return sortOccurrences(result);
}

/** The compact form (lib/calendar/compact.ts): each series once, its unchanged occurrences as start times. */
export function windowCompact(series: readonly WindowSeries[], from: Date, to: Date): CompactCalendar {
  const rooms: CompactCalendar['rooms'] = {};
  const list: CompactSeries[] = [];
  for (const { event, room, occurrences } of series) {
    if (room) rooms[room.id] ??= { name: room.name, color: room.color };
    const starts: number[] = [];
    const changed: CompactChange[] = [];
    for (const o of occurrences) {
      const e = o.exception;
      if (!e) {
        starts.push(Math.floor(o.start / 1000));
        continue;
      }
      changed.push({
        occurrence: Math.floor(o.originalStart / 1000),
        from: Math.floor(o.start / 1000),
        to: Math.floor(o.end / 1000),
        ...(e.title !== null && { title: e.title }),
        ...(e.description !== null && { description: e.description }),
      });
    }
    list.push({
      eventId: event.id,
      repeat: event.repeat,
      repeatType: event.repeatType,
      recurring: event.rrule !== null,
      title: event.title,
      description: event.description,
      timezone: event.timezone,
      roomId: room?.id ?? null,
      link: event.link,
      minutes: event.durationMinutes,
      starts,
      ...(changed.length && { changed }),
    });
  }
  return { form: 'compact', start: Math.floor(from.getTime() / 1000), end: Math.floor(to.getTime() / 1000), rooms, series: list };
}
