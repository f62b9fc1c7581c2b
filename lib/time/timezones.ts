// IANA time zones with their current UTC offsets, for the time-zone picker (SPEC point 2).
import { zoneOffsetMs } from './offset';

/** SPEC point 4: "UTC" (and an unset zone) is shown and stored as Europe/London. */
export function normalizeTimezone(timezone: string | null | undefined): string {
  if (!timezone || timezone === 'UTC' || timezone === 'Etc/UTC') return 'Europe/London';
  return timezone;
}

export function isValidTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** Minutes east of UTC that `timeZone` is at `at`. */
export function offsetMinutes(timeZone: string, at: Date = new Date()): number {
  return Math.round(zoneOffsetMs(at.getTime(), timeZone) / 60000);
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export interface TimezoneEntry {
  id: string;
  offset: number;
  label: string;
}

export function listTimezones(at: Date = new Date()): TimezoneEntry[] {
  return Intl.supportedValuesOf('timeZone')
    .filter((id) => id !== 'UTC')
    .map((id) => {
      const offset = offsetMinutes(id, at);
      return { id, offset, label: `(${formatOffset(offset)}) ${id.replaceAll('_', ' ')}` };
    })
    .sort((a, b) => a.offset - b.offset || a.id.localeCompare(b.id));
}
