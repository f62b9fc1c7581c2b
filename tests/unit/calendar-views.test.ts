import fc from 'fast-check';
import { DateTime } from 'luxon';
import { MONTH_GRID_DAYS, placeByDay, stepDate, viewDays, viewWindow } from '@/lib/calendar/grid';
import { addDays, addMonths, dateIn, instantOf, minutesIn, roundUpToFive, weekdayOf } from '@/lib/time/zoned';

const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Europe/London'];

describe('wall clock in a zone without luxon (lib/time/zoned)', () => {
  it('agrees with luxon on the day and time of any instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) }), fc.constantFrom(...zones), (ms, zone) => {
        const expected = DateTime.fromMillis(ms, { zone });
        expect(dateIn(ms, zone)).toBe(expected.toISODate());
        expect(minutesIn(ms, zone)).toBe(expected.hour * 60 + expected.minute);
      }),
    );
  });

  it('finds the instant of a wall-clock time like luxon does, across DST changes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 365 * 40 }),
        fc.integer({ min: 0, max: 24 * 12 - 1 }),
        fc.constantFrom(...zones),
        (dayOffset, fiveMinutes, zone) => {
          const date = addDays('2000-01-01', dayOffset);
          const minutes = fiveMinutes * 5;
          const expected = DateTime.fromISO(date, { zone }).set({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
          expect(instantOf(date, minutes, zone)).toBe(expected.toMillis());
        },
      ),
    );
  });

  it('gives the earlier instant of a repeated hour and moves a skipped one forward', () => {
    // Berlin: 2026-10-25 02:30 happens twice; 2026-03-29 02:30 does not exist.
    expect(new Date(instantOf('2026-10-25', 150, 'Europe/Berlin')).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(new Date(instantOf('2026-03-29', 150, 'Europe/Berlin')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(minutesIn(instantOf('2026-03-29', 150, 'Europe/Berlin'), 'Europe/Berlin')).toBe(210);
  });

  it('moves calendar days and months, clamping to the month end', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-11-15', 14)).toBe('2028-01-15');
    expect(weekdayOf('2026-11-23')).toBe(0);
    expect(weekdayOf('2026-11-29')).toBe(6);
  });

  it('rounds the time picker up to the next 5 minutes (SPEC point 5)', () => {
    expect([0, 1, 4, 5, 6, 599].map(roundUpToFive)).toEqual([0, 5, 5, 5, 10, 600]);
  });
});

describe('calendar views (lib/calendar/grid)', () => {
  it('a month grid has 42 days from the Monday on or before the 1st (SPEC point 9)', () => {
    for (const date of ['2026-11-22', '2026-02-01', '2027-03-31', '2026-06-15']) {
      const days = viewDays('month', date);
      expect(days).toHaveLength(MONTH_GRID_DAYS);
      expect(weekdayOf(days[0]!)).toBe(0);
      expect(days[0]! <= `${date.slice(0, 7)}-01`).toBe(true);
      expect(days).toContain(`${date.slice(0, 7)}-01`);
      expect(new Set(days).size).toBe(MONTH_GRID_DAYS);
    }
  });

  it('a week runs Monday to Sunday around its date; the list covers the month', () => {
    expect(viewDays('week', '2026-11-26')).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(viewDays('day', '2026-11-26')).toEqual(['2026-11-26']);
    const list = viewDays('event', '2026-02-14');
    expect([list[0], list.at(-1), list.length]).toEqual(['2026-02-01', '2026-02-28', 28]);
  });

  it('previous and next move by a day, a week or a month', () => {
    expect(stepDate('day', '2026-11-30', 1)).toBe('2026-12-01');
    expect(stepDate('week', '2026-11-30', -1)).toBe('2026-11-23');
    expect(stepDate('month', '2026-01-31', 1)).toBe('2026-02-28');
    expect(stepDate('event', '2026-01-15', -1)).toBe('2025-12-15');
  });

  it('a view window runs from midnight of its first day to midnight after its last, in the zone', () => {
    const window = viewWindow(viewDays('week', '2026-10-26'), 'Europe/Berlin');
    // The week after the change back to CET: Monday 00:00 CET = Sunday 23:00 UTC.
    expect(new Date(window.start * 1000).toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(window.end - window.start).toBe(7 * 86400);
  });

  it('places meetings on their days in the zone, splits one across midnight, and gives overlaps columns', () => {
    const zone = 'America/New_York';
    const at = (iso: string) => DateTime.fromISO(iso, { zone }).toSeconds();
    const items = [
      { id: 'a', from: at('2026-11-23T09:00'), to: at('2026-11-23T10:00') },
      { id: 'b', from: at('2026-11-23T09:30'), to: at('2026-11-23T10:30') },
      { id: 'c', from: at('2026-11-23T10:00'), to: at('2026-11-23T11:00') },
      { id: 'd', from: at('2026-11-23T23:30'), to: at('2026-11-24T00:30') },
      { id: 'e', from: at('2026-11-24T12:00'), to: at('2026-11-24T12:15') },
    ];
    const placed = placeByDay(items, ['2026-11-23', '2026-11-24'], zone);
    const monday = placed.get('2026-11-23')!.map((p) => [p.item.id, p.startMinute, p.endMinute, p.column, p.columns]);
    expect(monday).toEqual([
      ['a', 540, 600, 0, 2],
      ['b', 570, 630, 1, 2],
      ['c', 600, 660, 0, 2],
      ['d', 1410, 1440, 0, 1],
    ]);
    const tuesday = placed.get('2026-11-24')!.map((p) => [p.item.id, p.startMinute, p.endMinute, p.columns]);
    expect(tuesday).toEqual([
      ['d', 0, 30, 1],
      ['e', 720, 735, 1],
    ]);
  });

  it('keeps the real length of an event in the hour the clocks go back, which ends before it starts on the wall clock', () => {
    // New York, 2026-11-01: 01:24 EDT for 37 minutes ends at 01:01 EST (found by the property below).
    const from = instantOf('2026-11-01', 84, 'America/New_York') / 1000;
    const placed = placeByDay([{ id: 'repeated', from, to: from + 37 * 60 }], ['2026-11-01'], 'America/New_York');
    expect(placed.get('2026-11-01')!.map((p) => [p.startMinute, p.endMinute])).toEqual([[84, 121]]);
  });

  it('never places a part outside the day or the days asked for', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ start: fc.integer({ min: 0, max: 14 * 1440 }), length: fc.integer({ min: 1, max: 600 }) }), { maxLength: 30 }),
        fc.constantFrom(...zones),
        (raw, zone) => {
          const base = instantOf('2026-10-19', 0, zone) / 1000;
          const items = raw.map((r, i) => ({ id: String(i), from: base + r.start * 60, to: base + (r.start + r.length) * 60 }));
          const days = viewDays('week', '2026-10-26');
          for (const [day, parts] of placeByDay(items, days, zone)) {
            expect(days).toContain(day);
            for (const p of parts) {
              expect(p.startMinute).toBeGreaterThanOrEqual(0);
              expect(p.endMinute).toBeLessThanOrEqual(1440);
              expect(p.startMinute).toBeLessThan(p.endMinute);
              expect(p.column).toBeLessThan(p.columns);
            }
          }
        },
      ),
    );
  });
});
