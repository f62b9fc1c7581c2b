// The fast expansion of lib/recurrence/ (compile.ts, walk.ts) (rules started at the window's period, the rules
// the app writes enumerated without rrule, cached zone offsets) against the naive one it
// replaced: rrule iterating from DTSTART, every wall clock converted by luxon. Random series of
// every repeat type, in zones with and without DST, that began up to eight years before the
// window, with COUNT and UNTIL ends; several windows per series in random order, so the cached
// rules and counts are reused.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { RRule } from 'rrule';
import { ruleEndingBefore } from '@/lib/recurrence/split';
import { fromFloating, toFloating } from '@/lib/time/floating';
import { buildRRule } from '@/lib/recurrence/build-rule';
import { isOccurrence, occurrenceStarts } from '@/lib/recurrence/expand';
import type { Series } from '@/lib/recurrence/series';
import { repeatTypes, weekdayCodes, type CustomRepeat } from '@/lib/event-rules/repeat';

const DAY_MS = 86_400_000;
const zones = [
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Europe/London',
  'Australia/Lord_Howe', // a 30-minute DST change
  'Pacific/Chatham', // +12:45 / +13:45
  'America/Sao_Paulo', // DST until 2019
  'Pacific/Auckland',
] as const;

// ---- The naive expansion (the code before the fast path, made deterministic) -------------------

function luxonFloating(instant: number, zone: string): Date {
  const d = DateTime.fromMillis(instant, { zone });
  return new Date(Date.UTC(d.year, d.month - 1, d.day, d.hour, d.minute, d.second));
}

/** The instant of a floating wall clock; a repeated wall clock is its first instant (RFC 5545). */
function luxonInstant(floating: Date, zone: string): number {
  const instant = DateTime.fromObject(
    {
      year: floating.getUTCFullYear(),
      month: floating.getUTCMonth() + 1,
      day: floating.getUTCDate(),
      hour: floating.getUTCHours(),
      minute: floating.getUTCMinutes(),
      second: floating.getUTCSeconds(),
    },
    { zone },
  ).toMillis();
  const same = [instant - 7_200_000, instant - 3_600_000, instant - 2_700_000, instant - 1_800_000].filter(
    (t) => luxonFloating(t, zone).getTime() === floating.getTime(),
  );
  return same[0] ?? instant;
}

function naiveStarts(series: Series, from: Date, to: Date): number[] {
  const durationMs = series.durationMinutes * 60_000;
  const overlaps = (start: number) => start < to.getTime() && start + durationMs > from.getTime();
  const start = series.start.getTime();
  if (!series.rrule) return overlaps(start) ? [start] : [];
  if (start >= to.getTime()) return [];
  const options = RRule.parseString(series.rrule);
  const dtstart = luxonFloating(start, series.timezone);
  options.dtstart = dtstart;
  options.tzid = null;
  if (options.until) options.until = luxonFloating(options.until.getTime(), series.timezone);
  return new RRule(options)
    .between(luxonFloating(from.getTime() - durationMs - DAY_MS, series.timezone), luxonFloating(to.getTime() + DAY_MS, series.timezone), true)
    .map((floating) => (floating.getTime() === dtstart.getTime() ? start - (start % 1000) : luxonInstant(floating, series.timezone)))
    .filter(overlaps);
}

// ---- Random series ---------------------------------------------------------------------------

const weekdaySet = fc.subarray([...weekdayCodes], { minLength: 1 });
const end = fc.oneof(
  fc.constant({ type: 'never' as const }),
  fc.integer({ min: 1, max: 400 }).map((count) => ({ type: 'count' as const, count })),
  fc.integer({ min: 0, max: 3000 }).map((days) => ({ type: 'until' as const, days })),
);
const custom = fc.record({
  freq: fc.constantFrom('daily', 'weekly', 'monthly', 'annually' as const),
  interval: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 5 })),
  weekdays: weekdaySet,
  monthly: fc.oneof(
    fc.oneof(fc.integer({ min: 1, max: 31 }), fc.constant(-1), fc.constantFrom(28, 29, 30, 31)).map((day) => ({ mode: 'day' as const, day })),
    fc.record({ mode: fc.constant('nth' as const), n: fc.constantFrom(1, 2, 3, 4, -1), weekday: fc.constantFrom(...weekdayCodes) }),
  ),
  end,
});
/** Rules buildRRule does not write, which go through rrule itself (started at the window). */
const otherRules = fc.constantFrom(
  'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
  'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU',
  'FREQ=WEEKLY;INTERVAL=3;BYDAY=SU,WE;WKST=WE',
  'FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO',
  'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
  'FREQ=YEARLY;INTERVAL=2;BYYEARDAY=1,100,-1',
  'FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30',
  'FREQ=DAILY;INTERVAL=3;BYDAY=MO,FR',
  'FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=31',
  'FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13',
  'FREQ=MONTHLY;BYMONTH=1,6;BYMONTHDAY=15',
  'FREQ=YEARLY;BYMONTHDAY=1,-1',
  'FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU',
  'FREQ=HOURLY;INTERVAL=7',
  // Without a day: rrule takes DTSTART's weekday, day of the month, or month and day.
  'FREQ=WEEKLY;INTERVAL=2;BYHOUR=7,19',
  'FREQ=MONTHLY;BYHOUR=8,20',
  'FREQ=YEARLY;BYMINUTE=0,45',
);
const endSuffix = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 1, max: 300 }).map((n) => `;COUNT=${n}`),
);

const seriesArb = fc
  .record({
    zone: fc.constantFrom(...zones),
    day: fc.integer({ min: 0, max: 13 * 365 }), // from 2016
    hour: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 3 })),
    minute: fc.constantFrom(0, 15, 30, 45),
    minutes: fc.constantFrom(10, 30, 60, 120, 24 * 60 + 30),
    rule: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...repeatTypes.filter((t) => t !== 'custom')).map((type) => ({ type, custom: null, raw: null })) },
      { weight: 5, arbitrary: custom.map((c) => ({ type: 'custom' as const, custom: c, raw: null })) },
      { weight: 2, arbitrary: fc.tuple(otherRules, endSuffix).map(([r, s]) => ({ type: 'custom' as const, custom: null, raw: r + s })) },
    ),
    split: fc.option(fc.integer({ min: 1, max: 2000 }), { freq: 5 }),
  })
  .map(({ zone, day, hour, minute, minutes, rule, split }): Series => {
    const date = DateTime.fromMillis(Date.UTC(2016, 0, 1) + day * DAY_MS, { zone: 'UTC' });
    const start = DateTime.fromObject({ year: date.year, month: date.month, day: date.day, hour, minute }, { zone }).toJSDate();
    let rrule: string | null = rule.raw;
    if (!rrule && rule.custom) {
      const { end: e, ...rest } = rule.custom;
      const until = e.type === 'until' ? DateTime.fromJSDate(start, { zone }).plus({ days: e.days }).toISODate()! : '';
      const repeat: CustomRepeat = { ...rest, end: e.type === 'until' ? { type: 'until', date: until } : e };
      rrule = buildRRule('custom', start, zone, repeat);
    } else if (!rrule) rrule = buildRRule(rule.type, start, zone);
    // "This and following" ends the first part with an UNTIL one second before an occurrence.
    if (rrule && split) rrule = ruleEndingBefore(rrule, new Date(start.getTime() + split * DAY_MS));
    return { start, timezone: zone, durationMinutes: minutes, rrule };
  });

/** Windows from a year before the start to eight years after it, an hour to 45 days long. */
const windows = fc.array(
  fc.record({
    offsetHours: fc.integer({ min: -24 * 400, max: 24 * 365 * 8 }),
    hours: fc.oneof(fc.integer({ min: 1, max: 48 }), fc.integer({ min: 24 * 28, max: 24 * 45 })),
  }),
  { minLength: 1, maxLength: 4 },
);

const iso = (times: number[]) => times.map((t) => new Date(t).toISOString());

describe('fast expansion = naive expansion from DTSTART', () => {
  it('for random series and windows', () => {
    fc.assert(
      fc.property(seriesArb, windows, (series, list) => {
        for (const { offsetHours, hours } of list) {
          const from = new Date(series.start.getTime() + offsetHours * 3_600_000);
          const to = new Date(from.getTime() + hours * 3_600_000);
          expect(iso(occurrenceStarts(series, from, to).map((d) => d.getTime()))).toEqual(iso(naiveStarts(series, from, to)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('for month windows of series that began years ago, in every order', () => {
    fc.assert(
      fc.property(seriesArb, fc.shuffledSubarray([...Array(24).keys()], { minLength: 3, maxLength: 8 }), (series, months) => {
        const base = DateTime.fromJSDate(series.start, { zone: series.timezone }).startOf('month').plus({ years: 5 });
        for (const m of months) {
          const from = base.plus({ months: m });
          const [a, b] = [from.toJSDate(), from.plus({ months: 1 }).toJSDate()];
          const fast = occurrenceStarts(series, a, b);
          expect(iso(fast.map((d) => d.getTime()))).toEqual(iso(naiveStarts(series, a, b)));
          for (const start of fast.slice(0, 3)) expect(isOccurrence(series, start)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a daily COUNT series: the count is carried into windows years later, whichever is asked first', () => {
    const zone = 'Europe/Berlin';
    const start = DateTime.fromISO('2019-03-30T02:30', { zone }).toJSDate();
    const series: Series = {
      start,
      timezone: zone,
      durationMinutes: 30,
      rrule: buildRRule('custom', start, zone, { freq: 'daily', interval: 3, end: { type: 'count', count: 1000 } }),
    };
    for (const year of [2026, 2021, 2027, 2020, 2027]) {
      const from = DateTime.fromObject({ year, month: 3, day: 1 }, { zone });
      const [a, b] = [from.toJSDate(), from.plus({ months: 2 }).toJSDate()];
      expect(iso(occurrenceStarts(series, a, b).map((d) => d.getTime()))).toEqual(iso(naiveStarts(series, a, b)));
    }
    // Day by day in random order, so that some window begins in a period with one occurrence left.
    const weekly: Series = { start, timezone: zone, durationMinutes: 30, rrule: 'FREQ=WEEKLY;BYDAY=SA;COUNT=6' };
    const days = fc.sample(fc.shuffledSubarray([...Array(45).keys()], { minLength: 45, maxLength: 45 }), { numRuns: 1, seed: 7 })[0]!;
    for (const day of days) {
      const from = DateTime.fromJSDate(start, { zone }).startOf('day').plus({ days: day });
      const [a, b] = [from.toJSDate(), from.plus({ days: 1 }).toJSDate()];
      expect(iso(occurrenceStarts(weekly, a, b).map((d) => d.getTime()))).toEqual(iso(naiveStarts(weekly, a, b)));
    }
    // The 1000th and last occurrence: 2019-03-30 + 999 × 3 days.
    const last = DateTime.fromISO('2019-03-30T02:30', { zone }).plus({ days: 2997 });
    expect(occurrenceStarts(series, last.minus({ days: 1 }).toJSDate(), last.plus({ days: 30 }).toJSDate()).map((d) => d.getTime())).toEqual([last.toMillis()]);
  });
});

describe('wall clocks through cached zone offsets', () => {
  it('read every instant as luxon does', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones, 'Asia/Kathmandu', 'America/St_Johns', 'Africa/Casablanca'),
        fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2045, 0, 1) }),
        (zone, instant) => {
          const floating = toFloating(instant, zone);
          expect(floating).toBe(luxonFloating(instant, zone).getTime());
          const back = fromFloating(floating, zone);
          expect(back).toBe(luxonInstant(new Date(floating), zone));
          // Only the second of two equal wall clocks (the autumn change) reads back as the first.
          if (back !== instant - (instant % 1000)) expect(back).toBeLessThan(instant);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('read every 5 minutes around each DST change as luxon does', () => {
    for (const zone of zones) {
      for (const year of [2018, 2026]) {
        const changes: number[] = [];
        for (let day = Date.UTC(year, 0, 1); day < Date.UTC(year + 1, 0, 1); day += DAY_MS) {
          const offset = (t: number) => DateTime.fromMillis(t, { zone }).offset;
          if (offset(day) !== offset(day + DAY_MS)) changes.push(day);
        }
        for (const day of changes) {
          for (let instant = day - 6 * 3_600_000; instant < day + DAY_MS + 6 * 3_600_000; instant += 5 * 60_000 + 7_001) {
            const floating = toFloating(instant, zone);
            expect([zone, floating]).toEqual([zone, luxonFloating(instant, zone).getTime()]);
            expect([zone, fromFloating(floating, zone)]).toEqual([zone, luxonInstant(new Date(floating), zone)]);
          }
        }
      }
    }
  });

  it.each([
    ['Europe/Berlin', '2026-10-25T02:30:00Z', '2026-10-25T00:30:00.000Z'], // twice: the first (CEST)
    ['Europe/Berlin', '2026-03-29T02:30:00Z', '2026-03-29T01:30:00.000Z'], // gap: 03:30 CEST
    ['America/New_York', '2026-11-01T01:30:00Z', '2026-11-01T05:30:00.000Z'], // twice: EDT
    ['America/New_York', '2026-03-08T02:30:00Z', '2026-03-08T07:30:00.000Z'], // gap: 03:30 EDT
    ['Australia/Lord_Howe', '2026-04-05T01:45:00Z', '2026-04-04T14:45:00.000Z'], // twice, 30 minutes apart: +11
    ['Asia/Kolkata', '2026-06-01T09:00:00Z', '2026-06-01T03:30:00.000Z'],
  ])('%s %s (floating) is %s, as RFC 5545 reads it', (zone, floating, expected) => {
    expect(new Date(fromFloating(Date.parse(floating), zone)).toISOString()).toBe(expected);
  });
});
