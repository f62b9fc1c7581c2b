// Expansion: the occurrences of a series in a window, with wall clocks in the event's IANA zone.
// rrule computes in "floating" time (lib/time/floating.ts): a wall-clock 09:00 is handed to it as
// 09:00 UTC, and each result is read back as 09:00 in the event's zone. So a weekly 09:00
// Europe/Berlin meeting stays at 09:00 in Berlin on both sides of a DST change, which real UTC
// arithmetic would not give. Pure: no database, usable in tests, the benchmark and the browser.
import { floorSecond, fromFloating, toFloating } from '@/lib/time/floating';
import { compiled, type CompiledRule } from './compile';
import type { Series } from './series';
import { floatingBetween } from './walk';

// A module constant, not an import: read on every occurrence (tsx's CommonJS imports are getters).
const DAY_MS = 86_400_000;

/** The instant of an occurrence given in floating time (DTSTART is the series' own start). */
function occurrenceInstant(series: Series, rule: CompiledRule, floating: number): number {
  return floating === rule.dtstart ? floorSecond(series.start.getTime()) : fromFloating(floating, series.timezone);
}

/**
 * The original starts (ms) of the occurrences that overlap [from, to) (ms), oldest first. Only
 * that window is expanded; there is no cap on the number of occurrences of a series. Numbers,
 * not Dates: the calendar API expands thousands (and Next.js wraps the Date constructor).
 */
export function occurrenceTimes(series: Series, from: number, to: number): number[] {
  const durationMs = series.durationMinutes * 60_000;
  const first = series.start.getTime();
  if (!series.rrule) return first < to && first + durationMs > from ? [first] : [];
  if (first >= to) return [];
  const rule = compiled(series);
  // A day either side covers any UTC offset; the exact overlap is checked on real instants.
  const after = toFloating(from - durationMs - DAY_MS, series.timezone);
  const before = toFloating(to + DAY_MS, series.timezone);
  const result: number[] = [];
  for (const floating of floatingBetween(rule, after, before)) {
    const start = occurrenceInstant(series, rule, floating);
    if (start < to && start + durationMs > from) result.push(start);
  }
  return result;
}

/** occurrenceTimes with Dates. */
export function occurrenceStarts(series: Series, from: Date, to: Date): Date[] {
  return occurrenceTimes(series, from.getTime(), to.getTime()).map((start) => new Date(start));
}

/** True when `originalStart` (ms) is an occurrence of the series. */
export function isOccurrenceAt(series: Series, originalStart: number): boolean {
  return occurrenceTimes(series, originalStart, originalStart + 1).includes(originalStart);
}

/** True when `originalStart` is an occurrence of the series. */
export function isOccurrence(series: Series, originalStart: Date): boolean {
  return isOccurrenceAt(series, originalStart.getTime());
}

/** When the last occurrence ends, or null for a series without end. */
export function seriesEnd(series: Series): Date | null {
  const durationMs = series.durationMinutes * 60_000;
  if (!series.rrule) return new Date(series.start.getTime() + durationMs);
  const rule = compiled(series);
  const { until, count } = rule.full.options;
  if (!until && !count) return null;
  const last = until ? rule.full.before(until, true) : rule.full.all().at(-1);
  if (!last) return new Date(series.start.getTime() + durationMs);
  return new Date(occurrenceInstant(series, rule, last.getTime()) + durationMs);
}

/** How many occurrences start before `instant` (for a COUNT rule that is split in two). */
export function countBefore(series: Series, instant: Date): number {
  if (!series.rrule) return series.start < instant ? 1 : 0;
  const rule = compiled(series);
  const limit = toFloating(instant.getTime() - 1000, series.timezone);
  return rule.full.between(new Date(rule.dtstart), new Date(limit), true).filter((f) => occurrenceInstant(series, rule, f.getTime()) < instant.getTime())
    .length;
}
