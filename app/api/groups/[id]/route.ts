import { apiRoute } from '@/lib/api/handler';
import { removeGroup } from '@/lib/groups/remove';

// DELETE /api/groups/{id} – remove a group (its contacts stay)
export const DELETE = apiRoute<RouteContext<'/api/groups/[id]'>, 'required'>({ auth: 'required' }, ({ user, params }) => removeGroup(user, params.id));
