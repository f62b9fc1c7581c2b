// "Floating" time: the wall clock of a zone written as if it were UTC (09:00 Berlin → 09:00Z), in
// ms. Recurrence computes in it (a weekly 09:00 stays at 09:00 across a DST change), and so do the
// calendar and the wizard when they turn a day and a time into an instant. Browser-safe.
import { offsetAt, zoneOffsetMs } from './offset';

const DAY_MS = 86_400_000;

export const floorSecond = (ms: number) => ms - (((ms % 1000) + 1000) % 1000);

/** The wall clock of an instant in `zone`, to the second, as floating ms. */
export function toFloating(instant: number, zone: string): number {
  return floorSecond(instant + offsetAt(instant, zone));
}

/**
 * The instant at which the floating wall clock occurs in `zone`, as RFC 5545 (3.3.5) reads a
 * local time: one that occurs twice (the autumn change) is the first of the two, one in the gap
 * of the spring change is read with the offset before the gap — it moves forward (02:30 → 03:30).
 */
export function fromFloating(floating: number, zone: string): number {
  // Offsets 10 to 38 hours either side of the instant sought: before and after any change near it.
  const early = offsetAt(floating - DAY_MS, zone);
  const late = offsetAt(floating + DAY_MS, zone);
  const first = floating - early;
  if (early === late) {
    if (offsetAt(first, zone) === early) return first;
    return fromFloatingExactly(floating, zone);
  }
  const second = floating - late;
  const firstExists = offsetAt(first, zone) === early;
  const secondExists = offsetAt(second, zone) === late;
  if (firstExists && secondExists) return Math.min(first, second);
  if (secondExists) return second;
  return first;
}

/** The same without assumptions, for zones that change twice within two days: every offset of those days is tried. */
function fromFloatingExactly(floating: number, zone: string): number {
  const offsets = new Set<number>();
  for (let t = floating - DAY_MS; t <= floating + DAY_MS; t += 1_800_000) offsets.add(zoneOffsetMs(t, zone));
  const instants = [...offsets].map((offset) => floating - offset).filter((t) => floorSecond(t + zoneOffsetMs(t, zone)) === floating);
  return instants.length ? Math.min(...instants) : floating - offsetAt(floating - DAY_MS, zone);
}

/** The same wall clock moved by `deltaMs` of wall-clock time, read in `toZone`. */
export function shiftWallClock(instant: Date, fromZone: string, deltaMs: number, toZone: string): Date {
  return new Date(fromFloating(toFloating(instant.getTime(), fromZone) + deltaMs, toZone));
}

/** The wall-clock difference between two instants, each read in its own zone. */
export function wallClockDelta(from: Date, fromZone: string, to: Date, toZone: string): number {
  return toFloating(to.getTime(), toZone) - toFloating(from.getTime(), fromZone);
}
