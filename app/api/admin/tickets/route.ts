import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';
import { ticketStatuses, type TicketStatus } from '@/lib/support/categories';
import { listQueue } from '@/lib/support/tickets';

// GET /api/admin/tickets?status=&q= – the support queue, open tickets first (admins only)
export const GET = apiRoute({ auth: 'admin' }, ({ request }) => {
  const status = request.nextUrl.searchParams.get('status') || undefined;
  if (status && !(ticketStatuses as readonly string[]).includes(status)) throw new ApiError('incorrect_data', { field: 'status' });
  return listQueue({ status: status as TicketStatus | undefined, query: request.nextUrl.searchParams.get('q') ?? '' });
});
