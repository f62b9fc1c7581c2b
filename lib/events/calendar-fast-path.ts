import 'server-only';
import { userForSession } from '@/lib/auth/session';
import { SESSION_COOKIE, unsealSession } from '@/lib/auth/session-cookie';
import { apiAnswerHeaders, type FastAnswer } from '@/lib/api/fast-answer';
import { currentRequest } from '@/lib/request-context';
import type { FastPath } from '@/lib/server-seam/seam.mjs';
import { CALENDAR_CACHE_CONTROL, calendarAnswer } from './calendar-answer';
import { calendarWindowSchema } from './schemas';

/** What the server layer passes: the request line's path and query, and three headers. */
export interface FastRequest {
  url: string;
  cookie: string | undefined;
  ifNoneMatch: string | undefined;
  acceptEncoding: string | undefined;
}

/** An answer for the server layer to write as it is; the body of a 200 is its gzipped JSON. */
export interface CalendarFastAnswer extends FastAnswer {
  status: 200 | 304;
}

/**
 * The calendar's fast path (issue 17, docs/decisions.md): server/server.mjs asks this before
 * handing a `GET /api/events/calendar?…` to Next.js, whose routing cost more CPU than the rest of
 * a revalidation. It answers only the compact form for a logged-in user: 304 when If-None-Match
 * names the current tag, else 200 with the body gzipped once per window and version (Next.js
 * gzips every answer again) when the client accepts gzip. Null sends the request on to Next.js,
 * which answers everything else (401, 400, the full form, no gzip, errors) as before.
 *
 * The checks are the route's own: the same window validation, the same session check (cookie,
 * account, revocation and session version read from the database) and the same calendarAnswer,
 * whose tag comes from the calendar version in the database, so a write by any path or instance
 * is seen here.
 */
export async function calendarFastAnswer(request: FastRequest): Promise<CalendarFastAnswer | null> {
  const query = new URL(request.url, 'http://localhost').searchParams;
  const window = calendarWindowSchema.safeParse({
    start: query.get('start') ?? undefined,
    end: query.get('end') ?? undefined,
    form: query.get('form') ?? undefined,
  });
  if (!window.success || window.data.form !== 'compact') return null;
  const gzip = acceptsGzip(request.acceptEncoding);
  if (!gzip && !request.ifNoneMatch) return null;
  const value = sessionCookie(request.cookie);
  if (!value) return null;
  const user = await userForSession(await unsealSession(value));
  if (!user) return null;
  const { start, end } = window.data;
  const answer = await calendarAnswer(user, { start, end }, 'compact', request.ifNoneMatch ?? null, Date.now(), { gzip });
  const headers = { ...staticHeaders(), ETag: answer.etag, 'Cache-Control': CALENDAR_CACHE_CONTROL };
  if (answer.status === 304) return { status: 304, headers };
  if (!answer.gzipped) return null;
  const body = answer.gzipped;
  return { status: 200, headers: { ...headers, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(body.length) }, body };
}

/** Accept-Encoding names gzip with a quality above 0 (RFC 9110 12.5.3). */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...parameters] = part.split(';').map((p) => p.trim().toLowerCase());
    if (coding !== 'gzip') return false;
    const quality = parameters.find((p) => p.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
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

/** What every API answer carries (lib/api/fast-answer.ts), varying on Accept-Encoding. */
function staticHeaders(): Record<string, string> {
  if (!headers) {
    const common = apiAnswerHeaders();
    // As the 200 it revalidates (RFC 9110: a 304 repeats the Vary a 200 would send).
    headers = { ...common, Vary: `${common.Vary}, Accept-Encoding` };
  }
  return headers;
}

const CALENDAR_ROUTE = '/api/events/calendar';

/**
 * In the server layer's list (lib/fast-paths.ts): a GET of the calendar with a query.
 * A request another site started is left to the route, which refuses it (lib/api/handler.ts).
 */
export const calendarFastPath: FastPath = {
  name: 'calendar',
  matches: ({ method, url, headers }) => method === 'GET' && url.startsWith(`${CALENDAR_ROUTE}?`) && !startedElsewhere(headers['sec-fetch-site']),
  async answer({ url, headers }) {
    let answer: CalendarFastAnswer | null;
    try {
      answer = await calendarFastAnswer({ url, cookie: headers.cookie, ifNoneMatch: headers['if-none-match'], acceptEncoding: headers['accept-encoding'] });
    } catch {
      return null; // Next.js answers it: a database error too (the route's 503)
    }
    // Counted as the route it stands in for (what it does not answer, the route counts itself).
    const state = currentRequest();
    if (answer && state) state.route = CALENDAR_ROUTE;
    return answer;
  },
};

function startedElsewhere(site: string | undefined): boolean {
  return site === 'cross-site' || site === 'same-site';
}
