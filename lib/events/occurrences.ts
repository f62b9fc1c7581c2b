// Occurrences of a series with its exceptions (RECURRENCE-ID / EXDATE semantics), and the
// mapping of exceptions when a series changes or splits ("this and following"). Pure.
import { fromFloating, toFloating } from '@/lib/time/floating';
import { formatUtc, joinRuleParts, ruleParts } from './recurrence/build-rule';
import { countBefore, isOccurrence, isOccurrenceAt, occurrenceTimes } from './recurrence/expand';
import type { Series } from './recurrence/series';

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

/** The rule of the part of a series before `at` (an original start): it ends just before it. */
export function ruleEndingBefore(rrule: string, at: Date): string {
  const parts = ruleParts(rrule);
  parts.delete('COUNT');
  parts.set('UNTIL', formatUtc(new Date(at.getTime() - 1000)));
  return joinRuleParts(parts);
}

/**
 * The rule of the following part of a split series: the new rule, and where the old one counted
 * occurrences, only those that are left after the split.
 */
export function ruleOfFollowingPart(oldSeries: Series, newRule: string | null, at: Date): string | null {
  if (!newRule || !oldSeries.rrule) return newRule;
  const oldCount = ruleParts(oldSeries.rrule).get('COUNT');
  const parts = ruleParts(newRule);
  if (oldCount && parts.get('COUNT') === oldCount) {
    parts.set('COUNT', String(Math.max(1, Number(oldCount) - countBefore(oldSeries, at))));
  }
  return joinRuleParts(parts);
}

/**
 * Where each exception of `oldSeries` (from `from` on) goes when the series becomes `newSeries`:
 * its original start is shifted on the wall clock as the series' start was (09:00 → 10:00 moves
 * the occurrence of each day to 10:00). If the new rule has that occurrence, the exception stays
 * with it (an occurrence edited on its own keeps its own time: it is excluded from the change);
 * otherwise a changed occurrence becomes a meeting of its own and a cancelled one is dropped.
 */
export function remapExceptions<E extends ExceptionLike>(
  oldSeries: Series,
  newSeries: Series,
  exceptions: readonly E[],
): { keep: { exception: E; originalStart: Date }[]; detach: E[]; drop: E[] } {
  // The shift on the wall clock, computed on floating time (the digits, as if in UTC), to the minute.
  const floating = (d: Date, zone: string) => {
    const f = toFloating(d.getTime(), zone);
    return f - (((f % 60_000) + 60_000) % 60_000);
  };
  const shiftMs = floating(newSeries.start, newSeries.timezone) - floating(oldSeries.start, oldSeries.timezone);
  const result = { keep: [] as { exception: E; originalStart: Date }[], detach: [] as E[], drop: [] as E[] };
  for (const exception of exceptions) {
    // Read as occurrenceStarts reads wall clocks (a repeated one is its first instant).
    const originalStart = new Date(fromFloating(floating(exception.originalStart, oldSeries.timezone) + shiftMs, newSeries.timezone));
    if (isOccurrence(newSeries, originalStart)) result.keep.push({ exception, originalStart });
    else if (exception.cancelled) result.drop.push(exception);
    else result.detach.push(exception);
  }
  return result;
}
