// One way to tell time (docs/decisions.md): the interface language picks the 12- or 24-hour clock,
// the same for the grid's hour labels, meeting times, chat, tickets, the wizard and the mails.
import { clockFormat, formatMinutesOfDay, hourCycleOf, zonesDiffer } from '@/lib/time/clock';
import { formatWhen } from '@/lib/events/mail';

// Intl writes a narrow no-break space before AM/PM; the tests read every space as one.
const plain = (text: string) => text.replace(/\s/g, ' ');
const NINE_FIVE_UTC = Date.UTC(2026, 2, 2, 9, 5);

describe('hourCycleOf', () => {
  it.each([
    ['en', 'h12'],
    ['hi', 'h12'],
    ['el', 'h12'],
    ['zh-tw', 'h12'],
    ['de', 'h23'],
    ['fr', 'h23'],
    ['nl', 'h23'],
    ['pl', 'h23'],
    ['zh-cn', 'h23'],
  ])('%s writes times with %s, as Intl does for the language', (locale, cycle) => {
    expect(hourCycleOf(locale)).toBe(cycle);
  });
});

describe('times of day', () => {
  it('a 12-hour language shows 9:05 AM, a 24-hour one 09:05', () => {
    expect(plain(clockFormat('en', 'UTC').format(NINE_FIVE_UTC))).toBe('9:05 AM');
    expect(clockFormat('de', 'UTC').format(NINE_FIVE_UTC)).toBe('09:05');
  });

  it('hour labels (minutes of the day) use the same clock as the times of meetings', () => {
    for (const locale of ['en', 'de', 'fr', 'el', 'hi', 'zh-cn', 'zh-tw', 'pt']) {
      expect(formatMinutesOfDay(9 * 60 + 5, locale)).toBe(clockFormat(locale, 'UTC').format(NINE_FIVE_UTC));
    }
    expect(plain(formatMinutesOfDay(14 * 60, 'en'))).toBe('2:00 PM');
    expect(formatMinutesOfDay(14 * 60, 'de')).toBe('14:00');
  });

  it('the end of the day is 24:00 on a 24-hour clock and 12:00 AM on a 12-hour one', () => {
    expect(formatMinutesOfDay(24 * 60, 'de')).toBe('24:00');
    expect(plain(formatMinutesOfDay(24 * 60, 'en'))).toBe('12:00 AM');
    expect(formatMinutesOfDay(0, 'de')).toBe('00:00');
  });

  it('a date with a time keeps the language’s clock, in the zone asked for', () => {
    expect(plain(clockFormat('en', 'Europe/London', 'medium').format(Date.UTC(2026, 6, 1, 13, 0)))).toBe('Jul 1, 2026, 2:00 PM');
    expect(clockFormat('de', 'Europe/Berlin', 'medium').format(Date.UTC(2026, 6, 1, 13, 0))).toBe('01.07.2026, 15:00');
  });

  it('mails write the meeting’s time in the reader’s clock', () => {
    const start = new Date(Date.UTC(2026, 2, 2, 14, 0));
    const end = new Date(Date.UTC(2026, 2, 2, 14, 30));
    expect(plain(formatWhen(start, end, 'UTC', 'en'))).toBe('Monday, March 2, 2026 at 2:00 PM – 2:30 PM (UTC)');
    expect(formatWhen(start, end, 'UTC', 'de')).toBe('Montag, 2. März 2026 um 14:00 – 14:30 (UTC)');
  });
});

describe('zonesDiffer', () => {
  const summer = Date.UTC(2026, 6, 1);
  const winter = Date.UTC(2026, 0, 15);

  it('a zone never differs from itself', () => {
    expect(zonesDiffer('Europe/London', 'Europe/London', summer)).toBe(false);
  });

  it('Europe/London and a browser in UTC differ, in summer and in winter (their clocks part in summer)', () => {
    expect(zonesDiffer('Europe/London', 'UTC', summer)).toBe(true);
    expect(zonesDiffer('Europe/London', 'UTC', winter)).toBe(true);
  });

  it('zones that keep one clock all year do not differ', () => {
    expect(zonesDiffer('Europe/Berlin', 'Europe/Paris', summer)).toBe(false);
    expect(zonesDiffer('Africa/Abidjan', 'UTC', winter)).toBe(false);
  });

  it('zones hours apart differ', () => {
    expect(zonesDiffer('Asia/Tokyo', 'America/New_York', winter)).toBe(true);
  });
});
