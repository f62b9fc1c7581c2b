import { apiRoute } from '@/lib/api/handler';
import { createContact } from '@/lib/contacts/save';
import { contactSchema } from '@/lib/contacts/schemas';

// POST /api/attendee – add a contact (name, email, phoneNumber, countryCode, color, lang, timezone)
export const POST = apiRoute({ auth: 'required', body: contactSchema }, async ({ user, body }) => ({
  attendee: await createContact(user, body),
}));
