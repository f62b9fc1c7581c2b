import { z } from 'zod';
import { MESSAGE_MAX, SUBJECT_MAX, SUBJECT_MIN, ticketCategories, ticketStatuses } from './categories';

const required = (issue: { input: unknown }) => (issue.input === undefined ? 'missing_data' : 'incorrect_data');

const message = z.string({ error: required }).trim().min(1, 'missing_data').max(MESSAGE_MAX, 'incorrect_data');

/** POST /api/tickets (the attachment travels beside it in the multipart form). */
export const ticketSchema = z.object({
  subject: z.string({ error: required }).trim().min(1, 'missing_data').min(SUBJECT_MIN, 'incorrect_data').max(SUBJECT_MAX, 'incorrect_data'),
  category: z.enum(ticketCategories, { error: required }),
  message,
});

/** POST /api/tickets/{id}/reply */
export const replySchema = z.object({ message });

/** POST /api/tickets/{id}/status */
export const statusSchema = z.object({ status: z.enum(ticketStatuses, { error: required }) });
