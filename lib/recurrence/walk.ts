// Enumeration of a compiled rule between two floating times. rrule iterates from DTSTART, period
// after period (day, week, month, year), and allocates a year-long array for each of them: a daily
// series that began a year ago walks 365 days before it reaches this month. Here the rule is
// started at the period of its grid (a whole number of intervals after DTSTART's day, week from
// WKST, month or year) in which the window begins: earlier periods cannot hold an occurrence of the
// window, and later ones are the same whichever period iteration began in. With COUNT, what is
// left of the count is carried: how many occurrences fall before that period is counted once (from
// the nearest period already counted) and remembered. Pinned to plain rrule by
// tests/unit/recurrence-equivalence.test.ts. Pure.
import { Frequency, RRule } from 'rrule';
import { periodStart, weekdayOf, type CompiledRule, type SimpleRule } from './compile';

// A module constant, not an import: read on every occurrence (tsx's CommonJS imports are getters).
const DAY_MS = 86_400_000;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
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
      const day = n > 0 ? 1 + ((weekday - firstWeekday + 7) % 7) + (n - 1) * 7 : length - ((((firstWeekday + length - 1) % 7) - weekday + 7) % 7) + (n + 1) * 7;
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
export function floatingBetween(rule: CompiledRule, after: number, before: number): number[] {
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
