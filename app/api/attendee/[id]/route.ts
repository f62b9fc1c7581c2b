import { apiRoute } from '@/lib/api/handler';
import { removeContact } from '@/lib/contacts/remove';

// DELETE /api/attendee/{id} – remove a contact (it leaves its groups)
export const DELETE = apiRoute<RouteContext<'/api/attendee/[id]'>, 'required'>({ auth: 'required' }, ({ user, params }) => removeContact(user, params.id));
