import 'server-only';
import { userForSession } from '@/lib/auth/session';
import { SESSION_COOKIE, unsealSession } from '@/lib/auth/session-cookie';
import { getDb } from '@/lib/db/client';
import { apiPolicy } from '@/lib/security/csp';
import { baseHeaders } from '@/lib/security/base-headers.mjs';
import { CALENDAR_CACHE_CONTROL, etagOf, matchesIfNoneMatch } from './calendar-answer';
import { calendarVersion } from './calendar-version';
import { calendarWindowSchema } from './schemas';

/** What the server layer passes: the request line's path and query, and two headers. */
export interface Revalidation {
  url: string;
  cookie: string | undefined;
  ifNoneMatch: string | undefined;
}

/**
 * The calendar's fast path (issue 17, docs/decisions.md): scripts/server.mjs asks this before
 * handing a `GET /api/events/calendar?…&form=compact` with If-None-Match to Next.js, whose routing
 * cost more CPU than the rest of the request. It answers only the one case that is cheap and
 * sure — a logged-in user whose compact window still has the tag they name — with the headers of
 * the 304 (those the route handler and next.config.mjs would give it); null sends the request on
 * to Next.js, which answers everything else (200, 401, 400, the full form, errors) as before.
 *
 * The checks are the route's own: the same window validation, the same session check (cookie,
 * account, revocation and session version read from the database), the same tag from the
 * calendar version read from the database, so a write by any path or instance is seen here.
 */
export async function calendarNotModified({ url, cookie, ifNoneMatch }: Revalidation): Promise<Record<string, string> | null> {
  if (!ifNoneMatch) return null;
  const query = new URL(url, 'http://localhost').searchParams;
  const window = calendarWindowSchema.safeParse({
    start: query.get('start') ?? undefined,
    end: query.get('end') ?? undefined,
    form: query.get('form') ?? undefined,
  });
  if (!window.success || window.data.form !== 'compact') return null;
  const value = sessionCookie(cookie);
  if (!value) return null;
  const user = await userForSession(await unsealSession(value));
  if (!user) return null;
  const version = await calendarVersion(await getDb(), user.id);
  if (version === null) return null;
  const etag = etagOf(user.id, version, window.data, 'compact');
  if (!matchesIfNoneMatch(ifNoneMatch, etag)) return null;
  return { ...staticHeaders(), ETag: etag, 'Cache-Control': CALENDAR_CACHE_CONTROL };
}

/**
 * The session cookie's value, decoded as Next.js decodes cookies; undefined when it is absent or
 * named twice (Next.js would take the last one: rare enough to leave to it).
 */
export function sessionCookie(header: string | undefined): string | undefined {
  const values: string[] = [];
  for (const pair of (header ?? '').split(/; */)) {
    const at = pair.indexOf('=');
    if (at === -1 || pair.slice(0, at) !== SESSION_COOKIE) continue;
    try {
      values.push(decodeURIComponent(pair.slice(at + 1)));
    } catch {
      return undefined;
    }
  }
  return values.length === 1 ? values[0] : undefined;
}

let headers: Record<string, string> | undefined;

/** What every API answer carries: next.config.mjs's headers and proxy.ts's API policy. */
function staticHeaders(): Record<string, string> {
  headers ??= {
    ...Object.fromEntries(baseHeaders(process.env.NODE_ENV === 'production').map(({ key, value }) => [key, value])),
    'Content-Security-Policy': apiPolicy,
    // As the 200 it revalidates (RFC 9110: a 304 repeats the Vary a 200 would send).
    Vary: 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, Accept-Encoding',
  };
  return headers;
}

/** Where scripts/server.mjs finds calendarNotModified: one process, one global. */
export const CALENDAR_FAST_PATH = Symbol.for('enclave.calendarNotModified');

/** Called by instrumentation.ts when the server starts. */
export function registerCalendarFastPath() {
  (globalThis as Record<symbol, unknown>)[CALENDAR_FAST_PATH] = calendarNotModified;
}
