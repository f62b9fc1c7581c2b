// Recurrence of RFC 5545 through rrule, with wall-clock times in the event's IANA zone (luxon).
// rrule computes in "floating" time: a wall-clock 09:00 is handed to it as 09:00 UTC, and each
// result is read back as 09:00 in the event's zone. So a weekly 09:00 Europe/Berlin meeting stays
// at 09:00 in Berlin on both sides of a DST change, which real UTC arithmetic would not give.
// Pure: no database, usable in tests, the benchmark and the browser.
import { DateTime, IANAZone } from 'luxon';
import { Frequency, RRule, type Options } from 'rrule';

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

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

// ---- Wall clocks ---------------------------------------------------------------------------
// A "floating" time is the wall clock of a zone written as if it were UTC (09:00 Berlin → 09:00Z),
// in milliseconds. Converting needs the zone's UTC offset, which luxon reads from Intl — a few
// microseconds each time, and an expansion converts every occurrence. Offsets are kept per UTC
// day instead: a day whose start, middle and end have the same offset has it all day (no zone
// changes its offset twice within a day and back); on a day with one change, the instant of the
// change is found once (by bisection); a day with two is read exactly every time.

const zoneCache = new Map<string, IANAZone>();
/** Per zone, per UTC day: its offset (ms), or its change, or null (read exactly). */
const offsetsByDay = new Map<string, Map<number, number | { at: number; before: number; after: number } | null>>();

function ianaZone(name: string): IANAZone {
  let zone = zoneCache.get(name);
  if (!zone) {
    zone = IANAZone.create(name);
    if (!zone.isValid) throw new RangeError(`Unknown time zone: ${name}`);
    zoneCache.set(name, zone);
  }
  return zone;
}

function exactOffset(zone: IANAZone, instant: number): number {
  return Math.round(zone.offset(instant) * MINUTE_MS);
}

function offsetsOfDay(zone: IANAZone, day: number) {
  const [start, mid, end] = [day * DAY_MS, day * DAY_MS + DAY_MS / 2, day * DAY_MS + DAY_MS - 1];
  const [first, middle, last] = [exactOffset(zone, start), exactOffset(zone, mid), exactOffset(zone, end)];
  if (first === middle && middle === last) return first;
  if (first !== middle && middle !== last) return null;
  // One change, between two instants with different offsets: the first instant of the new one.
  let [low, high] = first !== middle ? [start, mid] : [mid, end];
  const before = exactOffset(zone, low);
  while (high - low > 1) {
    const probe = Math.floor((low + high) / 2);
    if (exactOffset(zone, probe) === before) low = probe;
    else high = probe;
  }
  return { at: high, before, after: exactOffset(zone, high) };
}

/** The UTC offset of `zone` at `instant`, in ms. */
function offsetAt(zoneName: string, instant: number): number {
  let days = offsetsByDay.get(zoneName);
  if (!days) {
    days = new Map();
    offsetsByDay.set(zoneName, days);
  }
  const day = Math.floor(instant / DAY_MS);
  let offset = days.get(day);
  if (offset === undefined) {
    offset = offsetsOfDay(ianaZone(zoneName), day);
    if (days.size > 100_000) days.clear();
    days.set(day, offset);
  }
  if (typeof offset === 'number') return offset;
  if (offset) return instant < offset.at ? offset.before : offset.after;
  return exactOffset(ianaZone(zoneName), instant);
}

const floorSecond = (ms: number) => ms - (((ms % 1000) + 1000) % 1000);

/** The wall clock of an instant in `zone`, to the second, as floating ms. */
export function toFloating(instant: number, zone: string): number {
  return floorSecond(instant + offsetAt(zone, instant));
}

/**
 * The instant at which the floating wall clock occurs in `zone`, as RFC 5545 (3.3.5) reads a
 * local time: one that occurs twice (the autumn change) is the first of the two, one in the gap
 * of the spring change is read with the offset before the gap — it moves forward (02:30 → 03:30).
 */
export function fromFloating(floating: number, zone: string): number {
  // Offsets 10 to 38 hours either side of the instant sought: before and after any change near it.
  const early = offsetAt(zone, floating - DAY_MS);
  const late = offsetAt(zone, floating + DAY_MS);
  const first = floating - early;
  if (early === late) {
    if (offsetAt(zone, first) === early) return first;
    return fromFloatingExactly(floating, zone);
  }
  const second = floating - late;
  const firstExists = offsetAt(zone, first) === early;
  const secondExists = offsetAt(zone, second) === late;
  if (firstExists && secondExists) return Math.min(first, second);
  if (secondExists) return second;
  return first;
}

/** The same without assumptions, through luxon (for zones that change twice within two days). */
function fromFloatingExactly(floating: number, zone: string): number {
  const d = new Date(floating);
  const parts = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
  const instant = DateTime.fromObject(parts, { zone }).toMillis();
  // luxon picks either time of a repeated wall clock; take the first (RFC 5545).
  const candidates = [instant - 3 * 3_600_000, instant - 2 * 3_600_000, instant - 3_600_000, instant - 1_800_000].filter(
    (t) => floorSecond(t + exactOffset(ianaZone(zone), t)) === floating,
  );
  return candidates[0] ?? instant;
}

/** The same wall-clock moved by `deltaMs` of wall-clock time, read in `toZone`. */
export function shiftWallClock(instant: Date, fromZone: string, deltaMs: number, toZone: string): Date {
  return new Date(fromFloating(toFloating(instant.getTime(), fromZone) + deltaMs, toZone));
}

/** The wall-clock difference between two instants, each read in its own zone. */
export function wallClockDelta(from: Date, fromZone: string, to: Date, toZone: string): number {
  return toFloating(to.getTime(), toZone) - toFloating(from.getTime(), fromZone);
}

// ---- Rules -----------------------------------------------------------------------------------
// rrule iterates from DTSTART, period after period (day, week, month, year), and allocates a
// year-long array for each of them: a daily series that began a year ago walks 365 days before
// it reaches this month. Two shortcuts, both pinned to plain rrule by tests/unit/recurrence-equivalence.test.ts:
//
// - The rule is started at the period of its grid (a whole number of intervals after DTSTART's
//   day, week from WKST, month or year) in which the window begins. Earlier periods cannot hold
//   an occurrence of the window, and later ones are the same whichever period iteration began in.
//   With COUNT, what is left of the count is carried: how many occurrences fall before that
//   period is counted once (from the nearest period already counted) and remembered.
// - The rules the app writes (buildRRule, plus UNTIL / COUNT from splits) are enumerated directly
//   with Date.UTC arithmetic: a time of day, and weekdays, days of the month (-1 the last), nth
//   weekdays or months and days. Anything else (BYSETPOS, BYWEEKNO, hourly…) goes through rrule,
//   started at the same period with the values rrule derives from DTSTART written into the rule.

/** A rule the app writes, in a form that is enumerated without rrule. */
interface SimpleRule {
  /** Time of day, ms after floating midnight. */
  time: number;
  /** WEEKLY: the days after the week's start (WKST), ascending. */
  weekOffsets: number[];
  /** MONTHLY / YEARLY: days of the month, 1..31 or -31..-1 from its end. */
  monthDays: number[];
  /** MONTHLY: [weekday 0 = Monday, n (-1 the last)]. */
  nthWeekdays: [number, number][];
  /** YEARLY: months 1..12, ascending. */
  months: number[];
}

interface CompiledRule {
  /** The options in floating time, with rrule's defaults taken from DTSTART written out. */
  options: Partial<Options>;
  full: RRule;
  simple: SimpleRule | null;
  /** DTSTART, floating ms. */
  dtstart: number;
  /** UNTIL, floating ms, or null. */
  until: number | null;
  count: number | null;
  freq: Frequency;
  interval: number;
  /** The start of DTSTART's period (floating ms), or null when the rule is never shifted. */
  period0: number | null;
  /** How many occurrences start before the period `steps` periods after DTSTART's (COUNT rules). */
  counted: { steps: number; before: number }[];
  /** rrule copies started at a later period, by the number of periods (null: count used up). */
  shifted: Map<number, RRule | null>;
}

const ruleCache = new Map<string, CompiledRule>();

const notEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;
const isPresent = (value: unknown) => value !== null && value !== undefined;
const single = (value: number[] | null) => (value?.length === 1 ? value[0]! : null);

function compile(series: Series): CompiledRule {
  const parsed = RRule.parseString(series.rrule!);
  const dtstart = toFloating(series.start.getTime(), series.timezone);
  const options: Partial<Options> = { ...parsed, dtstart: new Date(dtstart), tzid: null };
  if (options.until) options.until = new Date(toFloating(options.until.getTime(), series.timezone));
  const full = new RRule(options, true);
  const { freq, interval, wkst } = full.options;
  const shiftable = freq === Frequency.DAILY || freq === Frequency.WEEKLY || freq === Frequency.MONTHLY || freq === Frequency.YEARLY;
  if (shiftable) {
    // What rrule's parseOptions derives from DTSTART when the rule does not say it.
    options.byhour ??= full.options.byhour;
    options.byminute ??= full.options.byminute;
    options.bysecond ??= full.options.bysecond;
    const derivesDay = !(
      Boolean(parsed.byweekno) ||
      notEmpty(parsed.byyearday) ||
      Boolean(parsed.bymonthday) ||
      notEmpty(parsed.bymonthday) ||
      isPresent(parsed.byweekday) ||
      isPresent(parsed.byeaster)
    );
    if (derivesDay && freq === Frequency.YEARLY) {
      options.bymonth = full.options.bymonth;
      options.bymonthday = full.options.bymonthday;
    }
    if (derivesDay && freq === Frequency.MONTHLY) options.bymonthday = full.options.bymonthday;
    if (derivesDay && freq === Frequency.WEEKLY) options.byweekday = full.options.byweekday;
  }
  return {
    options,
    full,
    simple: shiftable && interval > 0 ? simpleRule(full) : null,
    dtstart,
    until: options.until ? options.until.getTime() : null,
    count: full.options.count ?? null,
    freq,
    interval,
    period0: shiftable && interval > 0 ? periodStart(freq, wkst, dtstart) : null,
    counted: [{ steps: 0, before: 0 }],
    shifted: new Map(),
  };
}

/** The rule as a SimpleRule, or null when it uses more of RFC 5545 than buildRRule writes. */
function simpleRule(rule: RRule): SimpleRule | null {
  const o = rule.options;
  const [hour, minute, second] = [single(o.byhour), single(o.byminute), single(o.bysecond)];
  if (hour === null || minute === null || second === null) return null;
  if (notEmpty(o.bysetpos) || notEmpty(o.byweekno) || notEmpty(o.byyearday) || isPresent(o.byeaster)) return null;
  const monthDays = [...(o.bymonthday ?? []), ...(o.bynmonthday ?? [])];
  const weekdays = o.byweekday ?? [];
  const nthWeekdays = (o.bynweekday ?? []).map(([weekday, n]) => [weekday!, n!] as [number, number]);
  const months = [...(o.bymonth ?? [])].sort((a, b) => a - b);
  const simple: SimpleRule = { time: ((hour * 60 + minute) * 60 + second) * 1000, weekOffsets: [], monthDays, nthWeekdays, months };
  switch (o.freq) {
    case Frequency.DAILY:
      return !months.length && !monthDays.length && !weekdays.length && !nthWeekdays.length ? simple : null;
    case Frequency.WEEKLY:
      if (months.length || monthDays.length || nthWeekdays.length || !weekdays.length) return null;
      simple.weekOffsets = [...new Set(weekdays.map((d) => (d - o.wkst + 7) % 7))].sort((a, b) => a - b);
      return simple;
    case Frequency.MONTHLY:
      if (months.length || weekdays.length) return null;
      return monthDays.length > 0 !== nthWeekdays.length > 0 ? simple : null;
    case Frequency.YEARLY:
      if (weekdays.length || nthWeekdays.length || !monthDays.length) return null;
      if (!months.length) simple.months = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
      return simple;
    default:
      return null;
  }
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
/** 0 = Monday, as rrule counts. */
const weekdayOf = (ms: number) => (new Date(ms).getUTCDay() + 6) % 7;

/** The days (1..31) of a month a SimpleRule gives, ascending. `month` is 0-based. */
function daysOfMonth(simple: SimpleRule, year: number, month: number): number[] {
  const length = daysInMonth(year, month);
  const days = new Set<number>();
  for (const d of simple.monthDays) {
    const day = d > 0 ? d : length + d + 1;
    if (day >= 1 && day <= length) days.add(day);
  }
  if (simple.nthWeekdays.length) {
    const firstWeekday = weekdayOf(Date.UTC(year, month, 1));
    for (const [weekday, n] of simple.nthWeekdays) {
      const day =
        n > 0
          ? 1 + ((weekday - firstWeekday + 7) % 7) + (n - 1) * 7
          : length - ((((firstWeekday + length - 1) % 7) - weekday + 7) % 7) + (n + 1) * 7;
      if (day >= 1 && day <= length) days.add(day);
    }
  }
  return [...days].sort((a, b) => a - b);
}

/** The occurrences a SimpleRule puts in the period that starts at `start` (floating ms), ascending. */
function candidates(rule: CompiledRule, simple: SimpleRule, start: number): number[] {
  switch (rule.freq) {
    case Frequency.DAILY:
      return [start + simple.time];
    case Frequency.WEEKLY:
      return simple.weekOffsets.map((offset) => start + offset * DAY_MS + simple.time);
    case Frequency.MONTHLY: {
      const date = new Date(start);
      const [year, month] = [date.getUTCFullYear(), date.getUTCMonth()];
      return daysOfMonth(simple, year, month).map((day) => Date.UTC(year, month, day) + simple.time);
    }
    default: {
      const year = new Date(start).getUTCFullYear();
      return simple.months.flatMap((month) => daysOfMonth(simple, year, month - 1).map((day) => Date.UTC(year, month - 1, day) + simple.time));
    }
  }
}

/** The start (floating ms, 00:00) of the day, week (from `wkst`, 0 = Monday), month or year of `floating`. */
function periodStart(freq: Frequency, wkst: number, floating: number): number {
  const day = Math.floor(floating / DAY_MS);
  const date = new Date(day * DAY_MS);
  switch (freq) {
    case Frequency.DAILY:
      return day * DAY_MS;
    case Frequency.WEEKLY:
      return (day - ((weekdayOf(day * DAY_MS) - wkst + 7) % 7)) * DAY_MS;
    case Frequency.MONTHLY:
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    default:
      return Date.UTC(date.getUTCFullYear(), 0, 1);
  }
}

/** The start of the period `steps` periods (days, weeks, months, years) after DTSTART's. */
function periodAt(rule: CompiledRule, steps: number): number {
  const p0 = new Date(rule.period0!);
  switch (rule.freq) {
    case Frequency.DAILY:
      return rule.period0! + steps * DAY_MS;
    case Frequency.WEEKLY:
      return rule.period0! + steps * 7 * DAY_MS;
    case Frequency.MONTHLY:
      return Date.UTC(p0.getUTCFullYear(), p0.getUTCMonth() + steps, 1);
    default:
      return Date.UTC(p0.getUTCFullYear() + steps, 0, 1);
  }
}

/** The last period of the rule's grid (in periods after DTSTART's) that begins at or before `floating`; 0 when that is DTSTART's or earlier. */
function alignedSteps(rule: CompiledRule, floating: number): number {
  const start = periodStart(rule.freq, rule.full.options.wkst, floating);
  const p0 = new Date(rule.period0!);
  const t = new Date(start);
  let periods: number;
  switch (rule.freq) {
    case Frequency.DAILY:
      periods = Math.round((start - rule.period0!) / DAY_MS);
      break;
    case Frequency.WEEKLY:
      periods = Math.round((start - rule.period0!) / (7 * DAY_MS));
      break;
    case Frequency.MONTHLY:
      periods = (t.getUTCFullYear() - p0.getUTCFullYear()) * 12 + t.getUTCMonth() - p0.getUTCMonth();
      break;
    default:
      periods = t.getUTCFullYear() - p0.getUTCFullYear();
  }
  return Math.max(0, Math.floor(periods / rule.interval) * rule.interval);
}

/**
 * Walks a SimpleRule from the period `steps`, with `left` occurrences left of a COUNT, and gives
 * `visit` each occurrence up to `last` (floating ms, inclusive), ascending; stops early when
 * `visit` answers false. Answers how many occurrences it gave.
 */
function walk(rule: CompiledRule, simple: SimpleRule, steps: number, left: number | null, last: number, visit: (floating: number) => boolean): number {
  const end = rule.until === null ? last : Math.min(last, rule.until);
  let given = 0;
  for (let k = steps; ; k += rule.interval) {
    const start = periodAt(rule, k);
    if (start > end) return given;
    for (const floating of candidates(rule, simple, start)) {
      if (floating < rule.dtstart) continue;
      if (floating > end) return given;
      given += 1;
      if (!visit(floating) || (left !== null && given >= left)) return given;
    }
  }
}

/** An rrule copy of the rule started at the period `steps`, with the count that is left. */
function ruleFrom(rule: CompiledRule, steps: number, left: number | null): RRule {
  return new RRule({ ...rule.options, dtstart: new Date(periodAt(rule, steps)), ...(left !== null && { count: left }) }, true);
}

/** How many occurrences of a COUNT rule start before the period `steps`. */
function countedBefore(rule: CompiledRule, steps: number): number {
  let from = rule.counted[0]!;
  for (const point of rule.counted) if (point.steps <= steps && point.steps > from.steps) from = point;
  if (from.steps === steps) return from.before;
  const left = rule.count! - from.before;
  let before = from.before;
  if (left > 0) {
    const end = periodAt(rule, steps) - 1;
    if (rule.simple) before += walk(rule, rule.simple, from.steps, left, end, () => true);
    else {
      const iterator = from.steps === 0 ? rule.full : ruleFrom(rule, from.steps, left);
      before += iterator.between(new Date(rule.dtstart), new Date(end), true).length;
    }
  }
  if (rule.counted.length > 32) rule.counted.splice(1, 1);
  rule.counted.push({ steps, before });
  return before;
}

/** What is left of a COUNT at the period `steps` (null: no count). */
function countLeft(rule: CompiledRule, steps: number): number | null {
  if (rule.count === null) return null;
  return steps === 0 ? rule.count : rule.count - countedBefore(rule, steps);
}

/** The rule's occurrences between two floating times (inclusive), as floating ms, ascending. */
function floatingBetween(rule: CompiledRule, after: number, before: number): number[] {
  if (rule.period0 === null) return rule.full.between(new Date(after), new Date(before), true).map((d) => d.getTime());
  const steps = alignedSteps(rule, after);
  const left = countLeft(rule, steps);
  if (left !== null && left <= 0) return [];
  if (rule.simple) {
    const result: number[] = [];
    walk(rule, rule.simple, steps, left, before, (floating) => {
      if (floating >= after) result.push(floating);
      return true;
    });
    return result;
  }
  let iterator = steps === 0 ? rule.full : rule.shifted.get(steps);
  if (!iterator) {
    iterator = ruleFrom(rule, steps, left);
    if (rule.shifted.size >= 8) rule.shifted.delete(rule.shifted.keys().next().value!);
    rule.shifted.set(steps, iterator);
  }
  return iterator.between(new Date(after), new Date(before), true).map((d) => d.getTime());
}

/** The compiled rule of a series; cached, as a calendar expands the same series often. */
function compiled(series: Series): CompiledRule {
  const key = `${series.start.getTime()}|${series.timezone}|${series.rrule}`;
  let rule = ruleCache.get(key);
  if (!rule) {
    rule = compile(series);
    if (ruleCache.size > 20_000) ruleCache.clear();
    ruleCache.set(key, rule);
  }
  return rule;
}

/** The instant of an occurrence given in floating time (DTSTART is the series' own start). */
function instantOf(series: Series, rule: CompiledRule, floating: number): number {
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
    const start = instantOf(series, rule, floating);
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
  return new Date(instantOf(series, rule, last.getTime()) + durationMs);
}

/** How many occurrences start before `instant` (for a COUNT rule that is split in two). */
export function countBefore(series: Series, instant: Date): number {
  if (!series.rrule) return series.start < instant ? 1 : 0;
  const rule = compiled(series);
  const limit = toFloating(instant.getTime() - 1000, series.timezone);
  return rule.full
    .between(new Date(rule.dtstart), new Date(limit), true)
    .filter((f) => instantOf(series, rule, f.getTime()) < instant.getTime()).length;
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
