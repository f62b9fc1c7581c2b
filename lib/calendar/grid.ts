// Which days a calendar view shows and where its meetings sit, in the user's time zone
// (SPEC point 2: day, week and month views, a month grid of 42 days, and the event list).
import { addDays, addMonths, dateIn, instantOf, minutesIn, weekdayOf } from '@/lib/time/zoned';
import type { CalendarView } from './view-path';

export const MONTH_GRID_DAYS = 42;
const DAY_MINUTES = 24 * 60;

/** The days a view shows around `date`: weeks start on Monday; the list shows the month. */
export function viewDays(view: CalendarView, date: string): string[] {
  if (view === 'day') return [date];
  if (view === 'week') {
    const monday = addDays(date, -weekdayOf(date));
    return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  }
  const first = `${date.slice(0, 8)}01`;
  if (view === 'event') {
    const next = addMonths(first, 1);
    const days: string[] = [];
    for (let day = first; day < next; day = addDays(day, 1)) days.push(day);
    return days;
  }
  const start = addDays(first, -weekdayOf(first));
  return Array.from({ length: MONTH_GRID_DAYS }, (_, i) => addDays(start, i));
}

/** The date that "previous" (-1) or "next" (1) goes to. */
export function stepDate(view: CalendarView, date: string, direction: -1 | 1): string {
  if (view === 'day') return addDays(date, direction);
  if (view === 'week') return addDays(date, 7 * direction);
  return addMonths(date, direction);
}

/** The instants [start, end) the days of a view cover in `timeZone`, in unix seconds. */
export function viewWindow(days: string[], timeZone: string): { start: number; end: number } {
  const first = days[0]!;
  const last = days[days.length - 1]!;
  return {
    start: Math.floor(instantOf(first, 0, timeZone) / 1000),
    end: Math.floor(instantOf(addDays(last, 1), 0, timeZone) / 1000),
  };
}

export interface Timed {
  id: string;
  from: number;
  to: number;
}

/** A meeting's part on one day: minutes after midnight, and its column among those it overlaps. */
export interface Placed<T extends Timed> {
  item: T;
  date: string;
  startMinute: number;
  endMinute: number;
  column: number;
  columns: number;
}

/**
 * Splits meetings into their parts per day of `days` (one that crosses midnight shows on both
 * days), and gives overlapping parts side-by-side columns, as Google Calendar does.
 */
export function placeByDay<T extends Timed>(items: T[], days: string[], timeZone: string): Map<string, Placed<T>[]> {
  const byDay = new Map<string, Placed<T>[]>(days.map((day) => [day, []]));
  for (const item of items) {
    const startMs = item.from * 1000;
    const endMs = Math.max(item.to * 1000, startMs + 60_000);
    let day = dateIn(startMs, timeZone);
    let startMinute = minutesIn(startMs, timeZone);
    const lastDay = dateIn(endMs - 1, timeZone);
    for (let guard = 0; guard < 400 && day <= lastDay; guard += 1) {
      const endMinute = day === lastDay ? lastEndMinute(startMs, endMs, startMinute, timeZone) : DAY_MINUTES;
      byDay.get(day)?.push({ item, date: day, startMinute, endMinute, column: 0, columns: 1 });
      day = addDays(day, 1);
      startMinute = 0;
    }
  }
  for (const parts of byDay.values()) assignColumns(parts);
  return byDay;
}

/**
 * Where an item's last part ends on the wall clock. In the hour a zone repeats when its clocks go
 * back (New York, 2026-11-01 01:00–02:00), an item of that day can end before it starts on the
 * wall clock (01:24 EDT for 37 minutes ends at 01:01 EST): its block then keeps its real length.
 */
function lastEndMinute(startMs: number, endMs: number, startMinute: number, timeZone: string): number {
  const wallEnd = minutesIn(endMs - 1, timeZone) + 1;
  return wallEnd > startMinute ? wallEnd : Math.min(DAY_MINUTES, startMinute + Math.ceil((endMs - startMs) / 60_000));
}

/** Greedy columns per cluster of overlapping parts; every part of a cluster shares its width. */
function assignColumns<T extends Timed>(parts: Placed<T>[]) {
  parts.sort((a, b) => a.startMinute - b.startMinute || b.endMinute - a.endMinute);
  let cluster: Placed<T>[] = [];
  let columnEnds: number[] = [];
  let clusterEnd = -1;
  const close = () => {
    for (const part of cluster) part.columns = columnEnds.length;
    cluster = [];
    columnEnds = [];
  };
  for (const part of parts) {
    if (part.startMinute >= clusterEnd) close();
    let column = columnEnds.findIndex((end) => end <= part.startMinute);
    if (column === -1) column = columnEnds.push(0) - 1;
    columnEnds[column] = part.endMinute;
    part.column = column;
    cluster.push(part);
    clusterEnd = Math.max(clusterEnd, part.endMinute);
  }
  close();
}
