// IANA time zones with their current UTC offsets, for the time-zone picker (SPEC point 2).

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
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60000);
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
