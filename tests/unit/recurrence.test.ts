import { DateTime } from 'luxon';
import { buildRRule } from '@/lib/recurrence/build-rule';
import { countBefore, occurrenceStarts, seriesEnd } from '@/lib/recurrence/expand';
import type { Series } from '@/lib/recurrence/series';
import type { CustomRepeat, RepeatType } from '@/lib/event-rules/repeat';
import { expandSeries, type ExceptionLike } from '@/lib/recurrence/exceptions';
import { remapExceptions, ruleEndingBefore, ruleOfFollowingPart } from '@/lib/recurrence/split';

const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).toJSDate();
const local = (dates: Date[], zone: string) => dates.map((d) => DateTime.fromJSDate(d, { zone }).toFormat("yyyy-MM-dd'T'HH:mm ccc"));

function series(startIso: string, zone: string, repeatType: RepeatType, custom?: CustomRepeat, minutes = 30): Series {
  const start = at(startIso, zone);
  return { start, timezone: zone, durationMinutes: minutes, rrule: buildRRule(repeatType, start, zone, custom) };
}

describe('recurrence: every repeat type (SPEC point 3)', () => {
  const zone = 'Europe/Berlin';
  const window = [at('2026-03-02T00:00', zone), at('2026-03-16T00:00', zone)] as const;

  it.each<[RepeatType, CustomRepeat | undefined, string[]]>([
    ['none', undefined, ['2026-03-02T09:00 Mon']],
    ['daily', undefined, Array.from({ length: 14 }, (_, i) => DateTime.fromISO('2026-03-02T09:00').plus({ days: i }).toFormat("yyyy-MM-dd'T'HH:mm ccc"))],
    ['weekly', undefined, ['2026-03-02T09:00 Mon', '2026-03-09T09:00 Mon']],
    [
      'weekdays',
      undefined,
      [
        '2026-03-02T09:00 Mon',
        '2026-03-03T09:00 Tue',
        '2026-03-04T09:00 Wed',
        '2026-03-05T09:00 Thu',
        '2026-03-06T09:00 Fri',
        '2026-03-09T09:00 Mon',
        '2026-03-10T09:00 Tue',
        '2026-03-11T09:00 Wed',
        '2026-03-12T09:00 Thu',
        '2026-03-13T09:00 Fri',
      ],
    ],
    ['monthly', undefined, ['2026-03-02T09:00 Mon']],
    ['annually', undefined, ['2026-03-02T09:00 Mon']],
    [
      'custom',
      { freq: 'daily', interval: 3 },
      ['2026-03-02T09:00 Mon', '2026-03-05T09:00 Thu', '2026-03-08T09:00 Sun', '2026-03-11T09:00 Wed', '2026-03-14T09:00 Sat'],
    ],
    ['custom', { freq: 'weekly', interval: 2, weekdays: ['TU', 'MO'] }, ['2026-03-02T09:00 Mon', '2026-03-03T09:00 Tue']],
    ['custom', { freq: 'weekly', interval: 1, weekdays: ['MO'], end: { type: 'count', count: 1 } }, ['2026-03-02T09:00 Mon']],
    [
      'custom',
      { freq: 'daily', interval: 1, end: { type: 'until', date: '2026-03-04' } },
      ['2026-03-02T09:00 Mon', '2026-03-03T09:00 Tue', '2026-03-04T09:00 Wed'],
    ],
  ])('%s %j', (repeatType, custom, expected) => {
    expect(local(occurrenceStarts(series('2026-03-02T09:00', zone, repeatType, custom), ...window), zone)).toEqual(expected);
  });

  it('monthly and annually repeat on the start day', () => {
    const monthly = series('2026-01-15T09:00', zone, 'monthly');
    expect(local(occurrenceStarts(monthly, at('2026-01-01', zone), at('2026-05-01', zone)), zone)).toEqual([
      '2026-01-15T09:00 Thu',
      '2026-02-15T09:00 Sun',
      '2026-03-15T09:00 Sun',
      '2026-04-15T09:00 Wed',
    ]);
    const annually = series('2026-02-28T09:00', zone, 'annually');
    expect(local(occurrenceStarts(annually, at('2026-01-01', zone), at('2029-01-01', zone)), zone)).toEqual([
      '2026-02-28T09:00 Sat',
      '2027-02-28T09:00 Sun',
      '2028-02-28T09:00 Mon',
    ]);
  });

  it('expands only the requested window, with no cap on occurrences', () => {
    const daily = series('2026-01-01T09:00', zone, 'daily');
    const far = occurrenceStarts(daily, at('2036-01-01', zone), at('2036-01-08', zone));
    expect(far).toHaveLength(7);
    expect(seriesEnd(daily)).toBeNull();
    // 10 years of a daily meeting: far past cal.com's 24.
    expect(occurrenceStarts(daily, at('2026-01-01', zone), at('2036-01-01', zone))).toHaveLength(3652);
  });
});

describe('recurrence: DST keeps the wall clock (SPEC point 4)', () => {
  it.each([
    // Europe/Berlin: summer time from 29 March 2026, back on 25 October 2026.
    ['Europe/Berlin', '2026-03-23T09:00', ['2026-03-23T09:00 Mon', '2026-03-30T09:00 Mon'], ['2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z']],
    ['Europe/Berlin', '2026-10-19T09:00', ['2026-10-19T09:00 Mon', '2026-10-26T09:00 Mon'], ['2026-10-19T07:00:00.000Z', '2026-10-26T08:00:00.000Z']],
    // America/New_York: 8 March and 1 November 2026.
    ['America/New_York', '2026-03-02T09:00', ['2026-03-02T09:00 Mon', '2026-03-09T09:00 Mon'], ['2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z']],
    ['America/New_York', '2026-10-26T09:00', ['2026-10-26T09:00 Mon', '2026-11-02T09:00 Mon'], ['2026-10-26T13:00:00.000Z', '2026-11-02T14:00:00.000Z']],
  ])('weekly 09:00 %s from %s', (zone, start, wall, utc) => {
    const weekly = series(start, zone, 'weekly');
    const starts = occurrenceStarts(weekly, weekly.start, new Date(weekly.start.getTime() + 8 * 86400_000));
    expect(local(starts, zone)).toEqual(wall);
    expect(starts.map((d) => d.toISOString())).toEqual(utc);
  });

  it('a daily 02:30 in Berlin moves forward on the day 02:30 does not exist, and is back the day after', () => {
    const zone = 'Europe/Berlin';
    const daily = series('2026-03-28T02:30', zone, 'daily');
    expect(local(occurrenceStarts(daily, at('2026-03-28', zone), at('2026-03-31', zone)), zone)).toEqual([
      '2026-03-28T02:30 Sat',
      '2026-03-29T03:30 Sun',
      '2026-03-30T02:30 Mon',
    ]);
  });

  it('a window in another zone finds the same occurrences (the meeting is 09:00 in Berlin)', () => {
    const weekly = series('2026-03-23T09:00', 'Europe/Berlin', 'weekly');
    const starts = occurrenceStarts(weekly, at('2026-03-30T00:00', 'Pacific/Auckland'), at('2026-03-31T00:00', 'Pacific/Auckland'));
    expect(local(starts, 'Pacific/Auckland')).toEqual(['2026-03-30T20:00 Mon']);
    const nyDay = occurrenceStarts(weekly, at('2026-03-30T00:00', 'America/New_York'), at('2026-03-31T00:00', 'America/New_York'));
    expect(local(nyDay, 'America/New_York')).toEqual(['2026-03-30T03:00 Mon']);
  });
});

describe('recurrence: month ends', () => {
  const zone = 'America/New_York';
  it('monthly on the 31st repeats only in months that have one (RFC 5545)', () => {
    const monthly = series('2026-01-31T10:00', zone, 'monthly');
    expect(local(occurrenceStarts(monthly, at('2026-01-01', zone), at('2026-08-01', zone)), zone)).toEqual([
      '2026-01-31T10:00 Sat',
      '2026-03-31T10:00 Tue',
      '2026-05-31T10:00 Sun',
      '2026-07-31T10:00 Fri',
    ]);
  });
  it('custom: the last day of every month', () => {
    const last = series('2026-01-31T10:00', zone, 'custom', { freq: 'monthly', interval: 1, monthly: { mode: 'day', day: -1 } });
    expect(local(occurrenceStarts(last, at('2026-01-01', zone), at('2026-05-01', zone)), zone)).toEqual([
      '2026-01-31T10:00 Sat',
      '2026-02-28T10:00 Sat',
      '2026-03-31T10:00 Tue',
      '2026-04-30T10:00 Thu',
    ]);
  });
  it('custom: the last Friday and the second Tuesday', () => {
    const lastFriday = series('2026-01-30T10:00', zone, 'custom', { freq: 'monthly', interval: 1, monthly: { mode: 'nth', n: -1, weekday: 'FR' } });
    expect(local(occurrenceStarts(lastFriday, at('2026-01-01', zone), at('2026-04-01', zone)), zone)).toEqual([
      '2026-01-30T10:00 Fri',
      '2026-02-27T10:00 Fri',
      '2026-03-27T10:00 Fri',
    ]);
    const secondTuesday = series('2026-01-13T10:00', zone, 'custom', { freq: 'monthly', interval: 2, monthly: { mode: 'nth', n: 2, weekday: 'TU' } });
    expect(local(occurrenceStarts(secondTuesday, at('2026-01-01', zone), at('2026-06-01', zone)), zone)).toEqual([
      '2026-01-13T10:00 Tue',
      '2026-03-10T10:00 Tue',
      '2026-05-12T10:00 Tue',
    ]);
  });
  it('a series with a count ends with its last occurrence', () => {
    const counted = series('2026-01-05T10:00', zone, 'custom', { freq: 'weekly', interval: 1, end: { type: 'count', count: 3 } }, 60);
    expect(seriesEnd(counted)?.toISOString()).toBe(at('2026-01-19T11:00', zone).toISOString());
    expect(countBefore(counted, at('2026-01-19T10:00', zone))).toBe(2);
  });
});

describe('exceptions (RECURRENCE-ID / EXDATE)', () => {
  const zone = 'Europe/Berlin';
  const weekly = series('2026-03-02T09:00', zone, 'weekly');
  const ex = (originalIso: string, change: Partial<ExceptionLike>): ExceptionLike => ({
    originalStart: at(originalIso, zone),
    cancelled: false,
    startsAt: null,
    durationMinutes: null,
    title: null,
    description: null,
    ...change,
  });

  it('a cancelled occurrence is left out, a moved one is at its new time, also into the window from outside', () => {
    const exceptions = [
      ex('2026-03-09T09:00', { cancelled: true }),
      ex('2026-03-16T09:00', { startsAt: at('2026-03-17T14:00', zone), title: 'Moved' }),
      ex('2026-03-30T09:00', { startsAt: at('2026-03-22T10:00', zone) }),
    ];
    const result = expandSeries(weekly, exceptions, at('2026-03-02', zone), at('2026-03-29', zone));
    expect(result.map((o) => [DateTime.fromJSDate(o.start, { zone }).toFormat('MM-dd HH:mm'), o.exception?.title ?? null])).toEqual([
      ['03-02 09:00', null],
      ['03-17 14:00', 'Moved'],
      ['03-22 10:00', null],
      ['03-23 09:00', null],
    ]);
  });
});

describe('"this and following" splits', () => {
  const zone = 'Europe/Berlin';
  it('the first part ends just before the split, the following part keeps the rest of a count', () => {
    const old = series('2026-03-02T09:00', zone, 'custom', { freq: 'weekly', interval: 1, end: { type: 'count', count: 10 } });
    const split = at('2026-03-23T09:00', zone);
    const before: Series = { ...old, rrule: ruleEndingBefore(old.rrule!, split) };
    expect(local(occurrenceStarts(before, at('2026-03-01', zone), at('2027-01-01', zone)), zone)).toEqual([
      '2026-03-02T09:00 Mon',
      '2026-03-09T09:00 Mon',
      '2026-03-16T09:00 Mon',
    ]);
    const moved = at('2026-03-23T10:00', zone);
    const following: Series = {
      ...old,
      start: moved,
      rrule: ruleOfFollowingPart(old, buildRRule('custom', moved, zone, { freq: 'weekly', interval: 1, end: { type: 'count', count: 10 } }), split),
    };
    expect(following.rrule).toContain('COUNT=7');
    expect(occurrenceStarts(following, at('2026-03-01', zone), at('2027-01-01', zone))).toHaveLength(7);
  });

  it('exceptions follow the wall-clock shift; one edited on its own keeps its time, others are dropped or detached', () => {
    const old = series('2026-03-02T09:00', zone, 'weekly');
    const following = series('2026-03-24T10:00', zone, 'weekly'); // Mondays 09:00 → Tuesdays 10:00
    const cancelled: ExceptionLike = {
      originalStart: at('2026-03-30T09:00', zone),
      cancelled: true,
      startsAt: null,
      durationMinutes: null,
      title: null,
      description: null,
    };
    const edited: ExceptionLike = { ...cancelled, originalStart: at('2026-04-06T09:00', zone), cancelled: false, startsAt: at('2026-04-06T15:00', zone) };
    const shifted = remapExceptions({ ...old, start: at('2026-03-23T09:00', zone) }, following, [cancelled, edited]);
    expect(shifted.keep.map((k) => DateTime.fromJSDate(k.originalStart, { zone }).toFormat('MM-dd HH:mm'))).toEqual(['03-31 10:00', '04-07 10:00']);
    expect(shifted.keep[1]!.exception.startsAt).toEqual(at('2026-04-06T15:00', zone));

    const daily = series('2026-03-23T09:00', zone, 'custom', { freq: 'weekly', interval: 2, weekdays: ['MO'] });
    const odd = remapExceptions({ ...old, start: at('2026-03-23T09:00', zone) }, daily, [cancelled, edited]);
    expect(odd.drop).toEqual([cancelled]);
    expect(odd.keep.map((k) => k.exception)).toEqual([edited]);
  });
});
