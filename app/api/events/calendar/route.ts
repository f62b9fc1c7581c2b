import { apiRoute } from '@/lib/api/handler';
import { validate } from '@/lib/api/validation';
import { CALENDAR_CACHE_CONTROL, calendarAnswer } from '@/lib/events/calendar-answer';
import { calendarWindowSchema } from '@/lib/events/schemas';

// GET /api/events/calendar?start&end[&form=compact] – the occurrences in a window (unix seconds):
// expanded one by one (full, SPEC point 7), or each series once with its start times (compact,
// docs/calendar.md). Either carries an ETag; a matching If-None-Match answers 304. Browsers
// keep the answer and ask again with it every time (private, no-cache). Under `npm start` the
// compact form for a logged-in user is answered before Next.js routes it
// (lib/events/calendar-fast-path.ts, docs/decisions.md): the same checks, fewer layers.
export const GET = apiRoute({ auth: 'required' }, async ({ user, request }) => {
  const query = request.nextUrl.searchParams;
  const { start, end, form } = validate(calendarWindowSchema, {
    start: query.get('start') ?? undefined,
    end: query.get('end') ?? undefined,
    form: query.get('form') ?? undefined,
  });
  const answer = await calendarAnswer(user, { start, end }, form, request.headers.get('if-none-match'));
  const headers = { ETag: answer.etag, 'Cache-Control': CALENDAR_CACHE_CONTROL };
  if (answer.status === 304) return new Response(null, { status: 304, headers });
  return new Response(answer.body, { headers: { ...headers, 'Content-Type': 'application/json' } });
});
