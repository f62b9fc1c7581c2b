import { apiRoute } from '@/lib/api/handler';
import { createEvent } from '@/lib/events/create';
import { eventSchema } from '@/lib/events/schemas';

// POST /api/event – schedule a meeting or a series (SPEC point 7)
export const POST = apiRoute({ auth: 'required', body: eventSchema }, ({ user, body }) => createEvent(user, body));
