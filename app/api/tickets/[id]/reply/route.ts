import { apiRoute } from '@/lib/api/handler';
import { replySchema } from '@/lib/support/schemas';
import { replyToTicket } from '@/lib/support/tickets';

// POST /api/tickets/{id}/reply {message} – the owner writes again, or staff answer (mailed to the owner)
export const POST = apiRoute<RouteContext<'/api/tickets/[id]/reply'>, 'required', typeof replySchema>(
  { auth: 'required', body: replySchema, maxBodyBytes: 32 * 1024 },
  ({ user, params, body }) => replyToTicket(user, params.id, body.message),
);
