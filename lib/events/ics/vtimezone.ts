// A VTIMEZONE for an IANA zone, derived from the zone's current rules (lib/time: the offset
// changes of one year): one STANDARD and one DAYLIGHT component with yearly RRULEs, or a single
// STANDARD for a zone without DST. Outlook needs it beside every TZID; Google and Apple use it
// when they do not know the id.
import { fromFloating } from '@/lib/time/floating';
import { offsetAt, offsetChanges, type OffsetChange } from '@/lib/time/offset';
import { formatFloating } from '@/lib/recurrence/build-rule';
import { weekdayCodes } from '@/lib/event-rules/repeat';

const MINUTE_MS = 60_000;

function offsetText(ms: number): string {
  const minutes = Math.round(ms / MINUTE_MS);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** The zone's short name at an instant (GMT+2, EST…), as en-US writes it. */
function shortName(zone: string, at: number, offset: number): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(new Date(at));
  return parts.find((p) => p.type === 'timeZoneName')?.value || `UTC${offsetText(offset)}`;
}

function component(kind: 'STANDARD' | 'DAYLIGHT', change: OffsetChange, name: string) {
  // DTSTART is the local time just before the change, in the offset being left (RFC 5545 3.6.5).
  const local = new Date(change.at + change.from);
  const daysInMonth = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0)).getUTCDate();
  const day = local.getUTCDate();
  const nth = day + 7 > daysInMonth ? -1 : Math.ceil(day / 7);
  return [
    `BEGIN:${kind}`,
    `DTSTART:${formatFloating(local.getTime())}`,
    `RRULE:FREQ=YEARLY;BYMONTH=${local.getUTCMonth() + 1};BYDAY=${nth}${weekdayCodes[(local.getUTCDay() + 6) % 7]}`,
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
  // Changes are found to the minute, as TZOFFSETFROM/TO and DTSTART are written.
  const changes = offsetChanges(zone, Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1));
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  if (changes.length >= 2) {
    for (const change of changes.slice(0, 2)) {
      const kind = change.to > change.from ? 'DAYLIGHT' : 'STANDARD';
      lines.push(...component(kind, change, shortName(zone, change.at + 3_600_000, change.to)));
    }
  } else {
    // Without DST: the offset in force when the year begins on the zone's clock.
    const start = fromFloating(Date.UTC(year, 0, 1), zone);
    const offset = offsetAt(start, zone);
    lines.push(
      'BEGIN:STANDARD',
      `DTSTART:${formatFloating(0)}`,
      `TZOFFSETFROM:${offsetText(offset)}`,
      `TZOFFSETTO:${offsetText(offset)}`,
      `TZNAME:${shortName(zone, start, offset)}`,
      'END:STANDARD',
    );
  }
  lines.push('END:VTIMEZONE');
  const text = lines.join('\r\n');
  cache.set(key, text);
  return text;
}
