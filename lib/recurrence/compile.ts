// A rule compiled for expansion: rrule's options in floating time (lib/time/floating.ts), and
// for the rules the app writes (buildRRule, plus UNTIL / COUNT from splits) a SimpleRule that
// walk.ts enumerates with Date.UTC arithmetic: a time of day, and weekdays, days of the month
// (-1 the last), nth weekdays or months and days. Anything else (BYSETPOS, BYWEEKNO, hourly…) goes
// through rrule, with the values rrule derives from DTSTART written into the rule so that it can
// be started at a later period. Pure.
import { Frequency, RRule, type Options } from 'rrule';
import { toFloating } from '@/lib/time/floating';
import type { Series } from './series';

// A module constant, not an import: read on every occurrence (tsx's CommonJS imports are getters).
const DAY_MS = 86_400_000;

/** A rule the app writes, in a form that is enumerated without rrule. */
export interface SimpleRule {
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

export interface CompiledRule {
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

/** 0 = Monday, as rrule counts. */
export const weekdayOf = (ms: number) => (new Date(ms).getUTCDay() + 6) % 7;

/** The start (floating ms, 00:00) of the day, week (from `wkst`, 0 = Monday), month or year of `floating`. */
export function periodStart(freq: Frequency, wkst: number, floating: number): number {
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

/** The compiled rule of a series; cached, as a calendar expands the same series often. */
export function compiled(series: Series): CompiledRule {
  const key = `${series.start.getTime()}|${series.timezone}|${series.rrule}`;
  let rule = ruleCache.get(key);
  if (!rule) {
    rule = compile(series);
    if (ruleCache.size > 20_000) ruleCache.clear();
    ruleCache.set(key, rule);
  }
  return rule;
}
