import { apiRoute } from '@/lib/api/handler';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { readTicketForm } from '@/lib/support/form';
import { listOwnTickets, openTicket } from '@/lib/support/tickets';

// GET /api/tickets?q= – the caller's own support tickets (subject, category, status, last reply)
export const GET = apiRoute({ auth: 'required' }, ({ user, request }) =>
  listOwnTickets(user, request.nextUrl.searchParams.get('q') ?? ''),
);

// POST /api/tickets – open a ticket: subject, category, message, optional attachment (multipart)
export const POST = apiRoute({ auth: 'required' }, async ({ user, request }) => {
  await consumeAttempt(limits.ticketOpen, user.id);
  const { fields, attachment } = await readTicketForm(request);
  const id = await openTicket(user, fields, attachment);
  return { status: 'ok', id };
});
