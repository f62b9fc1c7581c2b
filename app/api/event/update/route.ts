import { apiRoute } from '@/lib/api/handler';
import { eventUpdateSchema } from '@/lib/events/schemas';
import { updateEvent } from '@/lib/events/update';

// POST /api/event/update – change a meeting, one occurrence, this and following, or all events
export const POST = apiRoute({ auth: 'required', body: eventUpdateSchema }, ({ user, body }) => updateEvent(user, body));
