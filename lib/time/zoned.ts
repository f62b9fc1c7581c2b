// Wall-clock times in an IANA zone with Intl only, so the calendar and the schedule wizard work
// in the browser without shipping luxon. Dates are calendar days written YYYY-MM-DD; times of
// day are minutes after midnight.

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(instantMs: number, timeZone: string): WallClock {
  const values: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  return {
    year: values.year!,
    month: values.month!,
    day: values.day!,
    hour: values.hour! % 24,
    minute: values.minute!,
    second: values.second!,
  };
}

const pad = (value: number, size = 2) => String(value).padStart(size, '0');

function formatDate(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** The calendar day of an instant in `timeZone`. */
export function dateIn(instantMs: number, timeZone: string): string {
  const clock = wallClock(instantMs, timeZone);
  return formatDate(clock.year, clock.month, clock.day);
}

/** Minutes after midnight of an instant in `timeZone`. */
export function minutesIn(instantMs: number, timeZone: string): number {
  const clock = wallClock(instantMs, timeZone);
  return clock.hour * 60 + clock.minute;
}

/** How far ahead of UTC the zone's clock is at an instant, in milliseconds. */
export function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const c = wallClock(instantMs, timeZone);
  const seconds = Math.floor(instantMs / 1000) * 1000;
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - seconds;
}

/**
 * The instant at which the clock in `timeZone` shows `date` at `minutes` after midnight. A time
 * skipped by a DST change (02:30 on a spring-forward night) moves forward by the gap, as
 * calendar apps do; a time that happens twice takes its first (earlier) instant.
 */
export function instantOf(date: string, minutes: number, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, 0, minutes);
  const before = zoneOffsetMs(asUtc - 86_400_000 / 2, timeZone);
  const after = zoneOffsetMs(asUtc + 86_400_000 / 2, timeZone);
  // Try the offsets in force around that day: the earlier instant that shows the wanted clock wins.
  for (const offset of [...new Set([before, after])].sort((a, b) => b - a)) {
    const candidate = asUtc - offset;
    if (zoneOffsetMs(candidate, timeZone) === offset) return candidate;
  }
  // In a gap: no instant shows that clock; keep the offset from before the change.
  return asUtc - before;
}

/** `date` moved by `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  return formatDate(moved.getUTCFullYear(), moved.getUTCMonth() + 1, moved.getUTCDate());
}

/** `date` moved by `months`, its day clamped to the target month's length (Jan 31 + 1 → Feb 28). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const length = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return formatDate(first.getUTCFullYear(), first.getUTCMonth() + 1, Math.min(day, length));
}

/** Day of the week with Monday 0 … Sunday 6. */
export function weekdayOf(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
}

/** A calendar day as a Date at noon UTC, for Intl formatting of the day itself in any zone. */
export function dateForFormatting(date: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day, 12));
}

/** "HH:MM" for minutes after midnight. */
export function formatClock(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** Minutes after midnight from "HH:MM", or null. */
export function parseClock(value: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : null;
}

/** SPEC point 5: the time picker rounds minutes up to the next 5. */
export function roundUpToFive(minutes: number): number {
  return Math.ceil(minutes / 5) * 5;
}
