// A series that changes or splits ("this and following"): the rules of its two parts, and where
// its exceptions go. Pure.
import { fromFloating, toFloating } from '@/lib/time/floating';
import { formatUtc, joinRuleParts, ruleParts } from './build-rule';
import type { ExceptionLike } from './exceptions';
import { countBefore, isOccurrence } from './expand';
import type { Series } from './series';

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
