import 'server-only';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { ApiError } from '@/lib/errors';
import { ByteLru } from '@/lib/cache/byte-lru';
import type { CalendarForm } from '@/lib/calendar/compact';
import { getDb } from '@/lib/db/client';
import type { User } from '@/lib/db/schema';
import { calendarVersion } from './calendar-version';
import { expandWindow } from './load-window';
import { windowCompact, windowViews, type WindowSeries } from './views/window';
import type { OccurrenceView } from './views/occurrence';

/** Per process: enough for a few hundred compact months, or a handful of full ones. */
export const CALENDAR_CACHE_BYTES = 64 * 1024 * 1024;

interface FullForm {
  views: OccurrenceView[];
  /** Start of each view in ms, ascending (the views are by start): how many are past is a search. */
  starts: Float64Array;
  /** The body, rendered when `past` views had started. */
  body?: string;
  past: number;
}

interface WindowEntry {
  version: string;
  series: WindowSeries[];
  compact?: string;
  /** The compact body gzipped, for the server layer's fast path (lib/events/calendar-fast-path.ts). */
  compactGzip?: Buffer;
  full?: FullForm;
  bytes: number;
}

// The expansion of a window, per user and window, for the calendar version it was read at.
// Keyed by the user's id first: an entry is only ever found by its own user's requests.
const cache = new ByteLru<WindowEntry>(CALENDAR_CACHE_BYTES);
// Requests that miss together wait for one expansion.
const inflight = new Map<string, Promise<WindowEntry>>();

/** Browsers keep the answer and ask again with its ETag every time. */
export const CALENDAR_CACHE_CONTROL = 'private, no-cache';

export interface CalendarAnswer {
  status: 200 | 304;
  etag: string;
  /** JSON, for a 200. */
  body?: string;
  /** The same body gzipped, for a 200 of the compact form when asked with `gzip: true`. */
  gzipped?: Buffer;
}

/**
 * GET /api/events/calendar: the occurrences of [start, end) (unix s) in the full or compact form,
 * with a weak ETag (the body is compressed on its way out, so it is not byte-for-byte the same in
 * every encoding) and a 304 when `If-None-Match` names it.
 *
 * The ETag is a hash of the user, the window, the form and the calendar version
 * (lib/events/calendar-version.ts) — one cheap query, so the compact form answers 304 without
 * expanding anything, on any instance. The full form's `isPast` also depends on the clock: its
 * ETag counts the occurrences that have started.
 */
export async function calendarAnswer(
  user: Pick<User, 'id'>,
  window: { start: number; end: number },
  form: CalendarForm,
  ifNoneMatch: string | null,
  now: number = Date.now(),
  options: { gzip?: boolean } = {},
): Promise<CalendarAnswer> {
  // The version first, then the data: the data is then at least as new as the version it is
  // cached under (a change in between only costs a recomputation on the next request).
  const version = await calendarVersion(await getDb(), user.id);
  if (version === null) throw new ApiError('authentication_error');
  const tag = (variant: string) => etagOf(user.id, version, window, variant);

  if (form === 'compact') {
    const etag = tag('compact');
    if (matchesIfNoneMatch(ifNoneMatch, etag)) return { status: 304, etag };
    const entry = await windowEntry(user, window, version);
    if (entry.compact === undefined) {
      entry.compact = JSON.stringify(windowCompact(entry.series, new Date(window.start * 1000), new Date(window.end * 1000)));
      remember(user, window, entry, entry.compact.length);
    }
    if (options.gzip && entry.compactGzip === undefined) {
      // Once per window and version, instead of once per answer as Next.js's compression does.
      entry.compactGzip = gzipSync(entry.compact);
      remember(user, window, entry, entry.compactGzip.length);
    }
    return { status: 200, etag, body: entry.compact, ...(options.gzip && { gzipped: entry.compactGzip }) };
  }

  const entry = await windowEntry(user, window, version);
  let full = entry.full;
  if (!full) {
    const views = windowViews(entry.series, now);
    full = { views, starts: Float64Array.from(views, (v) => v.from * 1000), past: -1 };
    entry.full = full;
    remember(user, window, entry, views.length * 450);
  }
  const past = countBefore(full.starts, now);
  const etag = tag(`full.${past}`);
  if (matchesIfNoneMatch(ifNoneMatch, etag)) return { status: 304, etag };
  if (full.body === undefined || full.past !== past) {
    // The views are by start, so those that have started are the first `past` ones.
    full.views.forEach((view, i) => (view.isPast = i < past));
    const grew = full.body === undefined;
    full.body = JSON.stringify(full.views);
    full.past = past;
    if (grew) remember(user, window, entry, full.body.length);
  }
  return { status: 200, etag, body: full.body };
}

const keyOf = (user: Pick<User, 'id'>, window: { start: number; end: number }) => `${user.id}|${window.start}|${window.end}`;

async function windowEntry(user: Pick<User, 'id'>, window: { start: number; end: number }, version: string): Promise<WindowEntry> {
  const key = keyOf(user, window);
  const cached = cache.get(key);
  if (cached?.version === version) return cached;
  const flight = `${key}|${version}`;
  let pending = inflight.get(flight);
  if (!pending) {
    pending = expandWindow(user, new Date(window.start * 1000), new Date(window.end * 1000))
      .then((series) => {
        const occurrences = series.reduce((sum, s) => sum + s.occurrences.length, 0);
        const entry: WindowEntry = { version, series, bytes: series.length * 600 + occurrences * 120 };
        cache.set(key, entry, entry.bytes);
        return entry;
      })
      .finally(() => inflight.delete(flight));
    inflight.set(flight, pending);
  }
  return pending;
}

/** Counts what a form added to an entry (the cache drops the oldest entries to make room). */
function remember(user: Pick<User, 'id'>, window: { start: number; end: number }, entry: WindowEntry, bytes: number) {
  entry.bytes += bytes;
  const key = keyOf(user, window);
  if (cache.get(key) === entry) cache.set(key, entry, entry.bytes);
}

/** How many of the ascending `starts` are before `now`. */
function countBefore(starts: Float64Array, now: number): number {
  let [low, high] = [0, starts.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle]! < now) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The weak ETag of a window's answer in one form (`compact`, or `full.{started}`) at a calendar version. */
function etagOf(userId: string, version: string, window: { start: number; end: number }, variant: string): string {
  const hash = createHash('sha256').update(`calendar|${userId}|${window.start}|${window.end}|${variant}|${version}`).digest('base64url');
  return `W/"${hash.slice(0, 32)}"`;
}

/** RFC 9110 If-None-Match, by weak comparison: `*`, or a list of entity tags. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === wanted);
}

/** For tests: forget every cached window. */
export function clearCalendarCache() {
  cache.clear();
}

/** For tests: how many windows are cached. */
export function calendarCacheSize() {
  return cache.size;
}
