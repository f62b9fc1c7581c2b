import { apiRoute } from '@/lib/api/handler';
import { validate } from '@/lib/api/validation';
import { occurrencesBetween } from '@/lib/events/list';
import { calendarWindowSchema } from '@/lib/events/schemas';

// GET /api/events/calendar?start&end – the occurrences in a window (unix seconds), expanded
export const GET = apiRoute({ auth: 'required' }, ({ user, request }) => {
  const query = request.nextUrl.searchParams;
  const { start, end } = validate(calendarWindowSchema, {
    start: query.get('start') ?? undefined,
    end: query.get('end') ?? undefined,
  });
  return occurrencesBetween(user, new Date(start * 1000), new Date(end * 1000));
});
