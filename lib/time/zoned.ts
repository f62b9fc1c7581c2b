// Calendar days and times of day in an IANA zone, for the calendar and the schedule wizard in the
// browser (no luxon). Dates are calendar days written YYYY-MM-DD; times of day are minutes after
// midnight. The zone arithmetic itself is floating.ts / offset.ts, shared with recurrence.
import { fromFloating, toFloating } from './floating';

const pad = (value: number, size = 2) => String(value).padStart(size, '0');

function formatDate(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function dateOfFloating(floating: number): string {
  const d = new Date(floating);
  return formatDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

/** The calendar day of an instant in `timeZone`. */
export function dateIn(instantMs: number, timeZone: string): string {
  return dateOfFloating(toFloating(instantMs, timeZone));
}

/** Minutes after midnight of an instant in `timeZone`. */
export function minutesIn(instantMs: number, timeZone: string): number {
  const floating = toFloating(instantMs, timeZone);
  return Math.floor((((floating % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);
}

/**
 * The instant at which the clock in `timeZone` shows `date` at `minutes` after midnight. A time
 * skipped by a DST change (02:30 on a spring-forward night) moves forward by the gap, as
 * calendar apps do; a time that happens twice takes its first (earlier) instant.
 */
export function instantOf(date: string, minutes: number, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return fromFloating(Date.UTC(year, month - 1, day) + minutes * MINUTE_MS, timeZone);
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
