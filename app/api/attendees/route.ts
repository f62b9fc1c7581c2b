import { apiRoute } from '@/lib/api/handler';
import { listContacts } from '@/lib/contacts/list';

// GET /api/attendees – the user's contacts
export const GET = apiRoute({ auth: 'required' }, ({ user }) => listContacts(user.id));
