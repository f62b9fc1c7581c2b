// How a time of day is written: the 12- or 24-hour clock of the interface language (Intl's hour
// cycle for the locale), the same for every time the app shows — the calendar grid's hour labels,
// meeting times, the chat, tickets, the wizard and the mails (docs/decisions.md, "One way to tell
// time"). Browser-safe: Intl only.
import { zoneOffsetMs } from './offset';

type HourCycle = NonNullable<Intl.DateTimeFormatOptions['hourCycle']>;
type DateStyle = NonNullable<Intl.DateTimeFormatOptions['dateStyle']>;

const cycles = new Map<string, HourCycle>();

/** The hour cycle Intl uses for `locale`: "h12" (9:05 AM) or "h23" (09:05), as the language writes it. */
export function hourCycleOf(locale: string): HourCycle {
  let cycle = cycles.get(locale);
  if (!cycle) {
    cycle = new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).resolvedOptions().hourCycle ?? 'h23';
    cycles.set(locale, cycle);
  }
  return cycle;
}

/** Intl options for a time of day (9:05 AM, 09:05), with a date in `dateStyle` before it when given. */
export function clockOptions(locale: string, dateStyle?: DateStyle): Intl.DateTimeFormatOptions {
  return { ...(dateStyle ? { dateStyle } : {}), timeStyle: 'short', hourCycle: hourCycleOf(locale) };
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** A cached formatter of times (with a date in `dateStyle` when given) in `locale` and `timeZone`. */
export function clockFormat(locale: string, timeZone: string, dateStyle?: DateStyle): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone} ${dateStyle ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...clockOptions(locale, dateStyle), timeZone });
    formats.set(key, format);
  }
  return format;
}

/**
 * A wall-clock time given as minutes after midnight (the grid's hour labels, the hour range, the
 * wizard's start time). The end of the day, 1440, is 24:00 on a 24-hour clock (12:00 AM on a
 * 12-hour one), so that a range "to 24:00" does not read as its start.
 */
export function formatMinutesOfDay(minutes: number, locale: string): string {
  const format = clockFormat(locale, 'UTC');
  const at = Date.UTC(2000, 0, 1, 0, minutes);
  if (minutes !== 1440 || hourCycleOf(locale) !== 'h23') return format.format(at);
  return format
    .formatToParts(at)
    .map((part) => (part.type === 'hour' ? '24' : part.value))
    .join('');
}

const HALF_YEAR_MS = 182 * 86_400_000;

/**
 * Whether times read in zone `a` could be misread by someone whose clock is in zone `b`: their
 * offsets differ now or half a year from now (Europe/London and UTC agree in winter only, so they
 * differ; Europe/Berlin and Europe/Paris keep one clock all year, so they do not).
 */
export function zonesDiffer(a: string, b: string, now: number = Date.now()): boolean {
  if (a === b) return false;
  return [now, now + HALF_YEAR_MS].some((at) => zoneOffsetMs(at, a) !== zoneOffsetMs(at, b));
}

/** The zone the browser's clock is in. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A zone's name as people read it ("America/New_York" → "America/New York"). */
export const zoneName = (zone: string) => zone.replaceAll('_', ' ');
