import { apiRoute } from '@/lib/api/handler';
import { getEvent } from '@/lib/events/get';
import { removeEvent } from '@/lib/events/remove';
import { eventDeleteSchema } from '@/lib/events/schemas';

// GET /api/event/{id} – a meeting, or one occurrence ({id}_{unix start}) with its series
export const GET = apiRoute<RouteContext<'/api/event/[id]'>, 'required'>({ auth: 'required' }, ({ user, params }) => getEvent(user, params.id));

// DELETE /api/event/{id} – this occurrence, this meeting, or (a repeat uid) all events; optional {message}
export const DELETE = apiRoute<RouteContext<'/api/event/[id]'>, 'required', typeof eventDeleteSchema>(
  { auth: 'required', body: eventDeleteSchema },
  ({ user, params, body }) => removeEvent(user, params.id, body.message || undefined),
);
