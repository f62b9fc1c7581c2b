import { apiRoute } from '@/lib/api/handler';
import { updateContact } from '@/lib/contacts/save';
import { contactUpdateSchema } from '@/lib/contacts/schemas';

// POST /api/attendee/update – change a contact (id plus the fields of POST /api/attendee)
export const POST = apiRoute({ auth: 'required', body: contactUpdateSchema }, async ({ user, body }) => ({
  attendee: await updateContact(user, body),
}));
