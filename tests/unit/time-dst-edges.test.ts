// The DST edges of lib/time, the one home of zone arithmetic: the calendar's instantOf and
// recurrence's fromFloating are the same reading of a wall clock (RFC 5545 3.3.5: a skipped time
// moves forward by the gap, a repeated one is its first instant).
import { fromFloating, shiftWallClock, toFloating, wallClockDelta } from '@/lib/time/floating';
import { offsetAt, offsetChanges, zoneOffsetMs } from '@/lib/time/offset';
import { instantOf, minutesIn } from '@/lib/time/zoned';

const HOUR = 3_600_000;

describe('a wall clock at the DST edges', () => {
  it.each([
    // zone, day, wall clock, instant, the clock it shows
    ['Europe/Berlin', '2026-03-29', '02:30', '2026-03-29T01:30:00.000Z', '03:30'], // gap of 1 h
    ['Europe/Berlin', '2026-10-25', '02:30', '2026-10-25T00:30:00.000Z', '02:30'], // twice: CEST
    ['America/New_York', '2026-03-08', '02:30', '2026-03-08T07:30:00.000Z', '03:30'],
    ['America/New_York', '2026-11-01', '01:30', '2026-11-01T05:30:00.000Z', '01:30'], // twice: EDT
    ['Australia/Lord_Howe', '2026-10-04', '02:15', '2026-10-03T15:45:00.000Z', '02:45'], // gap of 30 min
    ['Australia/Lord_Howe', '2026-04-05', '01:45', '2026-04-04T14:45:00.000Z', '01:45'], // twice, 30 min apart
    ['Pacific/Chatham', '2026-09-27', '02:50', '2026-09-26T14:05:00.000Z', '03:50'], // +12:45 → +13:45
    ['Pacific/Chatham', '2026-04-05', '02:50', '2026-04-04T13:05:00.000Z', '02:50'],
    ['America/Santiago', '2026-09-06', '00:30', '2026-09-06T04:30:00.000Z', '01:30'], // gap at midnight
    ['America/Santiago', '2026-04-04', '23:30', '2026-04-05T02:30:00.000Z', '23:30'], // twice, the day before
    ['Australia/Sydney', '2026-10-04', '02:30', '2026-10-03T16:30:00.000Z', '03:30'],
    ['Asia/Kolkata', '2026-03-29', '02:30', '2026-03-28T21:00:00.000Z', '02:30'], // no DST
  ])('%s %s %s is %s and shows %s', (zone, date, clock, instant, shows) => {
    const [h, m] = clock.split(':').map(Number) as [number, number];
    const minutes = h * 60 + m;
    const expected = Date.parse(instant);
    expect(instantOf(date, minutes, zone)).toBe(expected);
    expect(fromFloating(Date.parse(`${date}T${clock}:00Z`), zone)).toBe(expected);
    const [sh, sm] = shows.split(':').map(Number) as [number, number];
    expect(minutesIn(expected, zone)).toBe(sh * 60 + sm);
    expect(toFloating(expected, zone)).toBe(Date.parse(`${date}T${shows}:00Z`));
  });

  it('keeps the offset cache equal to an exact read on both sides of each change', () => {
    for (const zone of ['Europe/Berlin', 'Australia/Lord_Howe', 'America/Santiago', 'Pacific/Chatham']) {
      for (const change of offsetChanges(zone, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1))) {
        for (const t of [change.at - 1, change.at, change.at + 1]) expect([zone, t, offsetAt(t, zone)]).toEqual([zone, t, zoneOffsetMs(t, zone)]);
        expect(offsetAt(change.at - 1, zone)).toBe(change.from);
        expect(offsetAt(change.at, zone)).toBe(change.to);
      }
    }
  });

  it.each([
    [
      'Europe/Berlin',
      [
        ['2026-03-29T01:00:00.000Z', 1, 2],
        ['2026-10-25T01:00:00.000Z', 2, 1],
      ],
    ],
    [
      'Australia/Lord_Howe',
      [
        ['2026-04-04T15:00:00.000Z', 11, 10.5],
        ['2026-10-03T15:30:00.000Z', 10.5, 11],
      ],
    ],
    [
      'America/Santiago',
      [
        ['2026-04-05T03:00:00.000Z', -3, -4],
        ['2026-09-06T04:00:00.000Z', -4, -3],
      ],
    ],
    ['Asia/Kolkata', []],
  ] as const)('finds the offset changes of %s in 2026', (zone, expected) => {
    const changes = offsetChanges(zone, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));
    expect(changes.map((c) => [new Date(c.at).toISOString(), c.from / HOUR, c.to / HOUR])).toEqual(expected);
  });

  it('moves a wall clock across a change by wall-clock time, not by elapsed time', () => {
    const friday = new Date('2026-03-27T08:00:00Z'); // 09:00 in Berlin, CET
    const monday = shiftWallClock(friday, 'Europe/Berlin', 3 * 24 * HOUR, 'Europe/Berlin');
    expect(monday.toISOString()).toBe('2026-03-30T07:00:00.000Z'); // 09:00 CEST
    expect(wallClockDelta(friday, 'Europe/Berlin', monday, 'Europe/Berlin')).toBe(3 * 24 * HOUR);
    // The same wall clock read in another zone.
    expect(shiftWallClock(friday, 'Europe/Berlin', 0, 'America/New_York').toISOString()).toBe('2026-03-27T13:00:00.000Z');
  });
});
