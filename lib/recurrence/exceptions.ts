// Occurrences of a series with its exceptions (RECURRENCE-ID / EXDATE semantics). Pure.
import { isOccurrenceAt, occurrenceTimes } from './expand';
import type { Series } from './series';

/** A change to one occurrence: cancelled (EXDATE) or moved / retitled (RECURRENCE-ID). */
export interface ExceptionLike {
  originalStart: Date;
  cancelled: boolean;
  startsAt: Date | null;
  durationMinutes: number | null;
  title: string | null;
  description: string | null;
}

export interface Occurrence<E extends ExceptionLike = ExceptionLike> {
  /** RECURRENCE-ID: where the rule puts it. */
  originalStart: Date;
  start: Date;
  end: Date;
  exception: E | null;
}

/** An Occurrence in ms (the calendar API's form: no Date per occurrence). */
export interface OccurrenceTimes<E extends ExceptionLike = ExceptionLike> {
  originalStart: number;
  start: number;
  end: number;
  exception: E | null;
}

/**
 * The occurrences that overlap [from, to) (ms): the rule's, less the cancelled ones, with the
 * changed ones at their new time — also those moved into the window from outside it.
 */
export function expandSeriesTimes<E extends ExceptionLike>(series: Series, exceptions: readonly E[], from: number, to: number): OccurrenceTimes<E>[] {
  const at = (originalStart: number, exception: E | null): OccurrenceTimes<E> => {
    const start = exception?.startsAt ? exception.startsAt.getTime() : originalStart;
    return { originalStart, start, end: start + (exception?.durationMinutes ?? series.durationMinutes) * 60_000, exception };
  };
  const byOriginal = new Map(exceptions.map((e) => [e.originalStart.getTime(), e]));
  const result: OccurrenceTimes<E>[] = [];
  const seen = new Set<number>();
  for (const originalStart of occurrenceTimes(series, from, to)) {
    const exception = byOriginal.get(originalStart) ?? null;
    if (exception) seen.add(originalStart);
    if (exception?.cancelled) continue;
    const item = at(originalStart, exception);
    if (item.start < to && item.end > from) result.push(item);
  }
  for (const exception of exceptions) {
    const originalStart = exception.originalStart.getTime();
    if (exception.cancelled || !exception.startsAt || seen.has(originalStart)) continue;
    const item = at(originalStart, exception);
    if (item.start < to && item.end > from && isOccurrenceAt(series, originalStart)) result.push(item);
  }
  return result.sort((a, b) => a.start - b.start);
}

/** expandSeriesTimes with Dates. */
export function expandSeries<E extends ExceptionLike>(series: Series, exceptions: readonly E[], from: Date, to: Date): Occurrence<E>[] {
  return expandSeriesTimes(series, exceptions, from.getTime(), to.getTime()).map((o) => ({
    originalStart: new Date(o.originalStart),
    start: o.exception?.startsAt ?? new Date(o.start),
    end: new Date(o.end),
    exception: o.exception,
  }));
}
