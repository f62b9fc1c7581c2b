'use client';

import { useLocale } from 'next-intl';
import { clockFormat, formatMinutesOfDay } from '@/lib/time/clock';
import { dateForFormatting } from '@/lib/time/zoned';

/** Formatters by language and zone: a month grid has a hundred meetings, made once, not per meeting. */
const cache = new Map<string, ReturnType<typeof makeFormat>>();

/** Dates and times in the user's language and time zone, for the calendar and the wizard. */
export function useCalendarFormat(timeZone: string) {
  const locale = useLocale();
  const key = `${locale} ${timeZone}`;
  let format = cache.get(key);
  if (!format) cache.set(key, (format = makeFormat(locale, timeZone)));
  return format;
}

function makeFormat(locale: string, timeZone: string) {
  // Every time of day in the language's hour cycle (lib/time/clock.ts), grid labels included.
  const time = clockFormat(locale, timeZone);
  const dateTime = clockFormat(locale, timeZone, 'full');
  // Calendar days are formatted at noon UTC in UTC, so no zone can move them to another day.
  const day = (options: Intl.DateTimeFormatOptions) => {
    const format = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options });
    return (date: string) => format.format(dateForFormatting(date));
  };
  return {
    /** 09:30 (de), 9:30 AM (en) */
    time: (unix: number) => time.format(unix * 1000),
    /** A wall-clock time as minutes after midnight, the grid's hour labels: 09:00 (de), 9:00 AM (en) */
    clock: (minutes: number) => formatMinutesOfDay(minutes, locale),
    /** 09:30 – 10:00 */
    timeRange: (from: number, to: number) => time.formatRange(from * 1000, to * 1000),
    /** Monday, 23 November 2026 at 09:30 */
    dateTime: (unix: number) => dateTime.format(unix * 1000),
    weekdayShort: day({ weekday: 'short' }),
    weekdayLong: day({ weekday: 'long' }),
    dayNumber: day({ day: 'numeric' }),
    shortDate: day({ day: 'numeric', month: 'short' }),
    longDate: day({ dateStyle: 'long' }),
    fullDate: day({ dateStyle: 'full' }),
    monthYear: day({ month: 'long', year: 'numeric' }),
  };
}
