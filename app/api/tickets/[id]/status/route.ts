import { apiRoute } from '@/lib/api/handler';
import { statusSchema } from '@/lib/support/schemas';
import { setTicketStatus } from '@/lib/support/tickets';

// POST /api/tickets/{id}/status {status} – close or reopen (owner); open, answered or closed (staff)
export const POST = apiRoute<RouteContext<'/api/tickets/[id]/status'>, 'required', typeof statusSchema>(
  { auth: 'required', body: statusSchema },
  ({ user, params, body }) => setTicketStatus(user, params.id, body.status),
);
