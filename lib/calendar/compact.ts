// The calendar's answer in two forms (GET /api/events/calendar, docs/calendar.md):
// - full (SPEC point 7, the default): one object per occurrence;
// - compact (`form=compact`): each series once with its display fields and the start times of
//   its occurrences, plus only the occurrences that an exception changed. The calendar page asks
//   for this form and expands it here, in the browser, into exactly the full form's objects.
// Pure and client-safe: no database, no rrule, no luxon.
import type { RepeatType } from '@/lib/event-rules/repeat';
import { formatDuration } from '@/lib/event-rules/duration';

export const calendarForms = ['full', 'compact'] as const;
export type CalendarForm = (typeof calendarForms)[number];

/** One meeting of the calendar: a single event, or one occurrence of a series (the full form). */
export interface CalendarOccurrence {
  /** The event's id, or {eventId}_{occurrence} for an occurrence of a series. */
  id: string;
  eventId: string;
  repeat: string;
  repeatType: RepeatType;
  /** Where the rule puts it (RECURRENCE-ID), unix seconds. */
  occurrence: number;
  title: string;
  description: string | null;
  from: number;
  to: number;
  duration: string;
  timezone: string;
  room: { id: string; name: string; color: number } | null;
  link: string | null;
  isException: boolean;
  /** SPEC point 4: its start is before now. */
  isPast: boolean;
}

/** An occurrence that an exception changed (moved, lengthened, retitled). */
export interface CompactChange {
  /** Where the rule puts it, unix seconds. */
  occurrence: number;
  from: number;
  to: number;
  /** Only when the exception has its own; otherwise the series'. */
  title?: string;
  description?: string;
}

export interface CompactSeries {
  eventId: string;
  repeat: string;
  repeatType: RepeatType;
  /** A series (ids of its occurrences are {eventId}_{occurrence}), or a single meeting. */
  recurring: boolean;
  title: string;
  description: string | null;
  timezone: string;
  roomId: string | null;
  link: string | null;
  /** Length of an unchanged occurrence, minutes. */
  minutes: number;
  /** Unix seconds of the unchanged occurrences in the window, ascending. */
  starts: number[];
  /** The changed occurrences that overlap the window (cancelled ones are simply absent). */
  changed?: CompactChange[];
}

export interface CompactCalendar {
  form: 'compact';
  start: number;
  end: number;
  /** The rooms the series use, once each. */
  rooms: Record<string, { name: string; color: number }>;
  series: CompactSeries[];
}

export function isCompactCalendar(value: unknown): value is CompactCalendar {
  const answer = value as CompactCalendar | null;
  return typeof answer === 'object' && answer !== null && answer.form === 'compact' && Array.isArray(answer.series) && typeof answer.rooms === 'object';
}

const byTitle = new Intl.Collator();

/**
 * By start, then by title (the full form's order). The few distinct titles are collated once,
 * not at every tie of the sort. Sorts in place.
 */
export function sortOccurrences<T extends { from: number; title: string }>(list: T[]): T[] {
  const titles = [...new Set(list.map((o) => o.title))].sort(byTitle.compare);
  const rank = new Map<string, number>();
  titles.forEach((title, i) => rank.set(title, i > 0 && byTitle.compare(titles[i - 1]!, title) === 0 ? rank.get(titles[i - 1]!)! : i));
  return list.sort((a, b) => a.from - b.from || rank.get(a.title)! - rank.get(b.title)!);
}

/** The compact answer expanded into the full form's occurrences, by start then title. */
export function expandCompact(answer: CompactCalendar, now: number = Date.now()): CalendarOccurrence[] {
  const result: CalendarOccurrence[] = [];
  for (const series of answer.series) {
    const roomFields = series.roomId ? answer.rooms[series.roomId] : undefined;
    const room = series.roomId && roomFields ? { id: series.roomId, name: roomFields.name, color: roomFields.color } : null;
    const occurrence = (original: number, from: number, to: number, title: string, description: string | null, isException: boolean): CalendarOccurrence => ({
      id: series.recurring ? `${series.eventId}_${original}` : series.eventId,
      eventId: series.eventId,
      repeat: series.repeat,
      repeatType: series.repeatType,
      occurrence: original,
      title,
      description,
      from,
      to,
      duration: formatDuration((to - from) / 60),
      timezone: series.timezone,
      room,
      link: series.link,
      isException,
      isPast: from * 1000 < now,
    });
    const length = series.minutes * 60;
    for (const start of series.starts) result.push(occurrence(start, start, start + length, series.title, series.description, false));
    for (const change of series.changed ?? []) {
      result.push(occurrence(change.occurrence, change.from, change.to, change.title ?? series.title, change.description ?? series.description, true));
    }
  }
  return sortOccurrences(result);
}
