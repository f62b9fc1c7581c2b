// Recurrence of RFC 5545 through rrule, with wall-clock times in the event's IANA zone (luxon).
// rrule computes in "floating" time: a wall-clock 09:00 is handed to it as 09:00 UTC, and each
// result is read back as 09:00 in the event's zone. So a weekly 09:00 Europe/Berlin meeting stays
// at 09:00 in Berlin on both sides of a DST change, which real UTC arithmetic would not give.
// Pure: no database, usable in tests, the benchmark and the browser.
import { DateTime } from 'luxon';
import { RRule, type Options } from 'rrule';

import { weekdayCodes, type CustomRepeat, type RepeatType } from './repeat';

export { repeatTypes, weekdayCodes, type CustomRepeat, type RepeatType, type WeekdayCode } from './repeat';

export interface Series {
  /** DTSTART as an instant. */
  start: Date;
  timezone: string;
  durationMinutes: number;
  /** The RRULE without DTSTART, or null for a single meeting. UNTIL, if any, is UTC. */
  rrule: string | null;
}

const freqCode = { daily: 'DAILY', weekly: 'WEEKLY', monthly: 'MONTHLY', annually: 'YEARLY' } as const;

/** The wall-clock start of a series in its zone. */
export function localStart(start: Date, timezone: string): DateTime {
  return DateTime.fromJSDate(start, { zone: timezone });
}

/** The RRULE of a repeat choice for a meeting that starts at `start` (wall clock in its zone). */
export function buildRRule(
  repeatType: RepeatType,
  start: Date,
  timezone: string,
  custom?: CustomRepeat | null,
): string | null {
  const local = localStart(start, timezone);
  const weekday = weekdayCodes[local.weekday - 1]!;
  switch (repeatType) {
    case 'none':
      return null;
    case 'daily':
      return 'FREQ=DAILY';
    case 'weekly':
      return `FREQ=WEEKLY;BYDAY=${weekday}`;
    // RFC 5545: a month without that day is skipped (the 31st repeats only in long months);
    // "the last day of the month" is the custom rule BYMONTHDAY=-1.
    case 'monthly':
      return `FREQ=MONTHLY;BYMONTHDAY=${local.day}`;
    case 'annually':
      return `FREQ=YEARLY;BYMONTH=${local.month};BYMONTHDAY=${local.day}`;
    case 'weekdays':
      return 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR';
    case 'custom': {
      if (!custom) return null;
      const parts = [`FREQ=${freqCode[custom.freq]}`];
      if (custom.interval > 1) parts.push(`INTERVAL=${custom.interval}`);
      if (custom.freq === 'weekly') {
        const days = custom.weekdays?.length ? weekdayCodes.filter((d) => custom.weekdays!.includes(d)) : [weekday];
        parts.push(`BYDAY=${days.join(',')}`);
      }
      if (custom.freq === 'monthly') {
        const monthly = custom.monthly ?? { mode: 'day', day: local.day };
        parts.push(monthly.mode === 'day' ? `BYMONTHDAY=${monthly.day}` : `BYDAY=${monthly.n}${monthly.weekday}`);
      }
      if (custom.freq === 'annually') parts.push(`BYMONTH=${local.month};BYMONTHDAY=${local.day}`);
      const end = custom.end ?? { type: 'never' };
      if (end.type === 'count') parts.push(`COUNT=${end.count}`);
      if (end.type === 'until') parts.push(`UNTIL=${untilOfDate(end.date, timezone)}`);
      return parts.join(';');
    }
  }
}

/** The UNTIL (UTC, RFC 5545 basic format) that ends a series on `date` inclusive, in `timezone`. */
export function untilOfDate(date: string, timezone: string): string {
  const end = DateTime.fromISO(date, { zone: timezone }).endOf('day').set({ millisecond: 0 });
  return formatUtc(end.toJSDate());
}

/** 20260301T090000Z */
export function formatUtc(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** The wall clock of an instant in `zone`, as the same digits in UTC (rrule's floating time). */
function toFloating(instant: Date | number, zone: string): Date {
  const local = DateTime.fromMillis(typeof instant === 'number' ? instant : instant.getTime(), { zone });
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}

/** The instant at which the floating wall clock occurs in `zone` (a time in a DST gap moves forward). */
function fromFloating(floating: Date, zone: string): Date {
  return DateTime.fromObject(
    {
      year: floating.getUTCFullYear(),
      month: floating.getUTCMonth() + 1,
      day: floating.getUTCDate(),
      hour: floating.getUTCHours(),
      minute: floating.getUTCMinutes(),
      second: floating.getUTCSeconds(),
    },
    { zone },
  ).toJSDate();
}

/** The same wall-clock moved by `deltaMs` of wall-clock time, read in `toZone`. */
export function shiftWallClock(instant: Date, fromZone: string, deltaMs: number, toZone: string): Date {
  return fromFloating(new Date(toFloating(instant, fromZone).getTime() + deltaMs), toZone);
}

/** The wall-clock difference between two instants, each read in its own zone. */
export function wallClockDelta(from: Date, fromZone: string, to: Date, toZone: string): number {
  return toFloating(to, toZone).getTime() - toFloating(from, fromZone).getTime();
}

const ruleCache = new Map<string, RRule>();

/** The rrule of a series in floating time; cached, as a calendar expands the same series often. */
function floatingRule(series: Series): RRule {
  const key = `${series.start.getTime()}|${series.timezone}|${series.rrule}`;
  let rule = ruleCache.get(key);
  if (rule) return rule;
  const options: Partial<Options> = RRule.parseString(series.rrule!);
  options.dtstart = toFloating(series.start, series.timezone);
  options.tzid = null;
  if (options.until) options.until = toFloating(options.until, series.timezone);
  rule = new RRule(options);
  if (ruleCache.size > 20_000) ruleCache.clear();
  ruleCache.set(key, rule);
  return rule;
}

const DAY_MS = 86_400_000;

/**
 * The original starts of the occurrences that overlap [from, to), oldest first. Only that window
 * is expanded; there is no cap on the number of occurrences of a series.
 */
export function occurrenceStarts(series: Series, from: Date, to: Date): Date[] {
  const durationMs = series.durationMinutes * 60_000;
  const overlaps = (start: Date) => start.getTime() < to.getTime() && start.getTime() + durationMs > from.getTime();
  if (!series.rrule) return overlaps(series.start) ? [series.start] : [];
  if (series.start.getTime() >= to.getTime()) return [];
  // A day either side covers any UTC offset; the exact overlap is checked on real instants.
  const after = toFloating(from.getTime() - durationMs - DAY_MS, series.timezone);
  const before = toFloating(to.getTime() + DAY_MS, series.timezone);
  return floatingRule(series)
    .between(after, before, true)
    .map((floating) => fromFloating(floating, series.timezone))
    .filter(overlaps);
}

/** True when `originalStart` is an occurrence of the series. */
export function isOccurrence(series: Series, originalStart: Date): boolean {
  return occurrenceStarts(series, originalStart, new Date(originalStart.getTime() + 1)).some(
    (start) => start.getTime() === originalStart.getTime(),
  );
}

/** When the last occurrence ends, or null for a series without end. */
export function seriesEnd(series: Series): Date | null {
  const durationMs = series.durationMinutes * 60_000;
  if (!series.rrule) return new Date(series.start.getTime() + durationMs);
  const rule = floatingRule(series);
  if (!rule.options.until && !rule.options.count) return null;
  const last = rule.options.until ? rule.before(rule.options.until, true) : rule.all().at(-1);
  if (!last) return new Date(series.start.getTime() + durationMs);
  return new Date(fromFloating(last, series.timezone).getTime() + durationMs);
}

/** How many occurrences start before `instant` (for a COUNT rule that is split in two). */
export function countBefore(series: Series, instant: Date): number {
  if (!series.rrule) return series.start < instant ? 1 : 0;
  const rule = floatingRule(series);
  const limit = toFloating(instant.getTime() - 1000, series.timezone);
  return rule.between(rule.options.dtstart, limit, true).filter((f) => fromFloating(f, series.timezone) < instant).length;
}

/** The rule's options as key → value (FREQ, COUNT, UNTIL…), in their order. */
export function ruleParts(rrule: string): Map<string, string> {
  return new Map(
    rrule
      .replace(/^RRULE:/, '')
      .split(';')
      .filter(Boolean)
      .map((part) => part.split('=') as [string, string]),
  );
}

export function joinRuleParts(parts: Map<string, string>): string {
  return [...parts].map(([key, value]) => `${key}=${value}`).join(';');
}
