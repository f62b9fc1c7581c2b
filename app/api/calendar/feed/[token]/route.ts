import { apiRoute } from '@/lib/api/handler';
import { feedCalendar } from '@/lib/events/feed';

// GET /api/calendar/feed/{token} – the private feed a calendar app subscribes to (no session; web
// calendars and links elsewhere fetch it from other sites; it changes nothing)
export const GET = apiRoute<RouteContext<'/api/calendar/feed/[token]'>, 'none'>({ auth: 'none', crossSiteGet: true }, async ({ params }) => {
  const token = params.token.replace(/\.ics$/, '');
  return new Response(await feedCalendar(token), {
    headers: { 'Content-Type': 'text/calendar; charset=utf-8', 'Cache-Control': 'private, max-age=300' },
  });
});
