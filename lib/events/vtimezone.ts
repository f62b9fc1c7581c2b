// A VTIMEZONE for an IANA zone, derived from the zone's current rules (luxon / Intl): one
// STANDARD and one DAYLIGHT component with yearly RRULEs, or a single STANDARD for a zone without
// DST. Outlook needs it beside every TZID; Google and Apple use it when they do not know the id.
import { DateTime } from 'luxon';
import { weekdayCodes } from './recurrence';

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** The instants in `year` at which the zone's UTC offset changes, to the minute. */
function transitions(zone: string, year: number): { at: DateTime; from: number; to: number }[] {
  const result: { at: DateTime; from: number; to: number }[] = [];
  let cursor = DateTime.fromObject({ year, month: 1, day: 1 }, { zone: 'UTC' });
  const end = cursor.plus({ years: 1 });
  const offsetAt = (instant: DateTime) => instant.setZone(zone).offset;
  while (cursor < end) {
    const next = cursor.plus({ days: 1 });
    const before = offsetAt(cursor);
    const after = offsetAt(next);
    if (before !== after) {
      // Search by whole minutes: the first minute with the new offset.
      let low = cursor.toMillis() / 60_000;
      let high = next.toMillis() / 60_000;
      while (high - low > 1) {
        const mid = low + Math.floor((high - low) / 2);
        if (offsetAt(DateTime.fromMillis(mid * 60_000, { zone: 'UTC' })) === before) low = mid;
        else high = mid;
      }
      result.push({ at: DateTime.fromMillis(high * 60_000, { zone: 'UTC' }), from: before, to: after });
    }
    cursor = next;
  }
  return result;
}

function component(kind: 'STANDARD' | 'DAYLIGHT', change: { at: DateTime; from: number; to: number }, name: string) {
  // DTSTART is the local time just before the change, in the offset being left (RFC 5545 3.6.5).
  const local = change.at.plus({ minutes: change.from });
  const nth = local.day + 7 > local.daysInMonth! ? -1 : Math.ceil(local.day / 7);
  return [
    `BEGIN:${kind}`,
    `DTSTART:${local.toFormat("yyyyMMdd'T'HHmmss")}`,
    `RRULE:FREQ=YEARLY;BYMONTH=${local.month};BYDAY=${nth}${weekdayCodes[local.weekday - 1]}`,
    `TZOFFSETFROM:${offsetText(change.from)}`,
    `TZOFFSETTO:${offsetText(change.to)}`,
    `TZNAME:${name}`,
    `END:${kind}`,
  ];
}

const cache = new Map<string, string>();

/** The VTIMEZONE text of `zone` (CRLF lines, as ical-generator expects from a generator). */
export function vtimezone(zone: string, year = new Date().getUTCFullYear()): string {
  const key = `${zone}|${year}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const changes = transitions(zone, year);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  const shortName = (offset: number, at: DateTime) => at.setZone(zone).toFormat('ZZZZ') || `UTC${offsetText(offset)}`;
  if (changes.length >= 2) {
    for (const change of changes.slice(0, 2)) {
      const kind = change.to > change.from ? 'DAYLIGHT' : 'STANDARD';
      lines.push(...component(kind, change, shortName(change.to, change.at.plus({ hours: 1 }))));
    }
  } else {
    const start = DateTime.fromObject({ year: 1970, month: 1, day: 1 }, { zone: 'UTC' });
    const offset = DateTime.fromObject({ year }, { zone }).offset;
    lines.push(
      'BEGIN:STANDARD',
      `DTSTART:${start.toFormat("yyyyMMdd'T'HHmmss")}`,
      `TZOFFSETFROM:${offsetText(offset)}`,
      `TZOFFSETTO:${offsetText(offset)}`,
      `TZNAME:${shortName(offset, DateTime.fromObject({ year }, { zone }))}`,
      'END:STANDARD',
    );
  }
  lines.push('END:VTIMEZONE');
  const text = lines.join('\r\n');
  cache.set(key, text);
  return text;
}
