import { apiRoute } from '@/lib/api/handler';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { statusSchema } from '@/lib/support/schemas';
import { setTicketStatus } from '@/lib/support/tickets';

// POST /api/tickets/{id}/status {status} – close or reopen (owner); open, answered or closed (staff)
export const POST = apiRoute<{ id: string }, 'required', typeof statusSchema>(
  { auth: 'required', body: statusSchema },
  async ({ user, params, body }) => {
    await consumeAttempt(limits.ticketWrite, user.id);
    return setTicketStatus(user, params.id, body.status);
  },
);
