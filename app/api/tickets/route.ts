import { apiRoute } from '@/lib/api/handler';
import { listOwnTickets, openTicketFromForm } from '@/lib/support/tickets';

// GET /api/tickets?q= – the caller's own support tickets (subject, category, status, last reply)
export const GET = apiRoute({ auth: 'required' }, ({ user, request }) => listOwnTickets(user, request.nextUrl.searchParams.get('q') ?? ''));

// POST /api/tickets – open a ticket: subject, category, message, optional attachment (multipart)
export const POST = apiRoute({ auth: 'required' }, async ({ user, request }) => {
  const id = await openTicketFromForm(user, request);
  return { status: 'ok', id };
});
