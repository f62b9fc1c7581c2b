import { apiRoute } from '@/lib/api/handler';
import { getTicket } from '@/lib/support/tickets';

// GET /api/tickets/{id} – one ticket and its conversation (its owner, or an admin)
export const GET = apiRoute<RouteContext<'/api/tickets/[id]'>, 'required'>({ auth: 'required' }, ({ user, params }) => getTicket(user, params.id));
