// SPEC point 2: /calendar/{view}/{date} with view week, month, day or event and date YYYY-MM-DD.
export const calendarViews = ['week', 'month', 'day', 'event'] as const;
export type CalendarView = (typeof calendarViews)[number];

export function isCalendarView(value: string): value is CalendarView {
  return (calendarViews as readonly string[]).includes(value);
}

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today as YYYY-MM-DD in `timeZone`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
