// The repeat choices of a meeting (SPEC point 3), apart from the rrule engine so the schedule
// wizard can use them in the browser without shipping rrule and luxon.

export const repeatTypes = ['none', 'daily', 'weekly', 'monthly', 'annually', 'weekdays', 'custom'] as const;
export type RepeatType = (typeof repeatTypes)[number];

export const weekdayCodes = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type WeekdayCode = (typeof weekdayCodes)[number];

/** The repeating picker's custom rule (SPEC point 2). */
export interface CustomRepeat {
  freq: 'daily' | 'weekly' | 'monthly' | 'annually';
  interval: number;
  /** Weekly: the days of the week (the start's day when empty). */
  weekdays?: WeekdayCode[];
  /** Monthly: on a day of the month (-1 the last day), or on the nth (-1 last) weekday. */
  monthly?: { mode: 'day'; day: number } | { mode: 'nth'; n: number; weekday: WeekdayCode };
  /** Ends never, after a date (inclusive, YYYY-MM-DD in the event's zone), or after a count. */
  end?: RepeatEnd;
}

/** How a series ends: never, on a date (inclusive, YYYY-MM-DD in the event's zone), or after a count. */
export type RepeatEnd = { type: 'never' } | { type: 'until'; date: string } | { type: 'count'; count: number };
