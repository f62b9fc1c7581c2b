// A zone's UTC offset at an instant, read from Intl (no luxon, so the browser can use it too), and
// kept per UTC day: an expansion converts every occurrence, and Intl takes a few microseconds a
// read. A day whose start, middle and end have the same offset has it all day (no zone changes
// its offset twice within a day and back); on a day with one change, the instant of the change is
// found once (by bisection); a day with two is read exactly every time.

export const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // Throws a RangeError for an unknown zone.
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

/** How far ahead of UTC the zone's clock is at an instant, in ms, read exactly (no cache). */
export function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const v: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') v[part.type] = Number(part.value);
  }
  const seconds = instantMs - (((instantMs % 1000) + 1000) % 1000);
  return Date.UTC(v.year!, v.month! - 1, v.day!, v.hour! % 24, v.minute!, v.second!) - seconds;
}

type DayOffsets = number | { at: number; before: number; after: number } | null;

/** Per zone, per UTC day: its offset (ms), or its change, or null (read exactly). */
const offsetsByDay = new Map<string, Map<number, DayOffsets>>();

function offsetsOfDay(zone: string, day: number): DayOffsets {
  const [start, mid, end] = [day * DAY_MS, day * DAY_MS + DAY_MS / 2, day * DAY_MS + DAY_MS - 1];
  const [first, middle, last] = [zoneOffsetMs(start, zone), zoneOffsetMs(mid, zone), zoneOffsetMs(end, zone)];
  if (first === middle && middle === last) return first;
  if (first !== middle && middle !== last) return null;
  const [low, high] = first !== middle ? [start, mid] : [mid, end];
  const at = firstWithNewOffset(zone, low, high);
  return { at, before: zoneOffsetMs(low, zone), after: zoneOffsetMs(at, zone) };
}

/** Between two instants with different offsets and one change: the first instant of the new offset. */
function firstWithNewOffset(zone: string, low: number, high: number): number {
  const before = zoneOffsetMs(low, zone);
  while (high - low > 1) {
    const probe = Math.floor((low + high) / 2);
    if (zoneOffsetMs(probe, zone) === before) low = probe;
    else high = probe;
  }
  return high;
}

function dayOffsets(zone: string, day: number): DayOffsets {
  let days = offsetsByDay.get(zone);
  if (!days) {
    days = new Map();
    offsetsByDay.set(zone, days);
  }
  let offsets = days.get(day);
  if (offsets === undefined) {
    offsets = offsetsOfDay(zone, day);
    if (days.size > 100_000) days.clear();
    days.set(day, offsets);
  }
  return offsets;
}

/** The UTC offset of `zone` at `instant`, in ms (the same as zoneOffsetMs, through the day cache). */
export function offsetAt(instant: number, zone: string): number {
  const offsets = dayOffsets(zone, Math.floor(instant / DAY_MS));
  if (typeof offsets === 'number') return offsets;
  if (offsets) return instant < offsets.at ? offsets.before : offsets.after;
  return zoneOffsetMs(instant, zone);
}

export interface OffsetChange {
  /** The first instant (ms) with the new offset. */
  at: number;
  /** Offsets before and after, in ms. */
  from: number;
  to: number;
}

/** The instants in [from, to) at which the zone's offset changes, ascending. */
export function offsetChanges(zone: string, from: number, to: number): OffsetChange[] {
  const changes: OffsetChange[] = [];
  for (let day = Math.floor(from / DAY_MS); day * DAY_MS < to; day += 1) {
    const offsets = dayOffsets(zone, day);
    if (offsets === null || typeof offsets === 'number') {
      // Two changes in a day are found by hours (none is known today), one at the day's border by its start.
      const previous = zoneOffsetMs(day * DAY_MS - 1, zone);
      const first = offsets ?? zoneOffsetMs(day * DAY_MS, zone);
      if (previous !== first) changes.push({ at: day * DAY_MS, from: previous, to: first });
      if (offsets === null) changes.push(...hourlyChanges(zone, day));
    } else changes.push({ at: offsets.at, from: offsets.before, to: offsets.after });
  }
  return changes.filter((c) => c.at >= from && c.at < to);
}

function hourlyChanges(zone: string, day: number): OffsetChange[] {
  const changes: OffsetChange[] = [];
  for (let hour = day * DAY_MS; hour < (day + 1) * DAY_MS; hour += 3_600_000) {
    const [from, to] = [zoneOffsetMs(hour, zone), zoneOffsetMs(hour + 3_600_000 - 1, zone)];
    if (from !== to) changes.push({ at: firstWithNewOffset(zone, hour, hour + 3_600_000 - 1), from, to });
  }
  return changes;
}
