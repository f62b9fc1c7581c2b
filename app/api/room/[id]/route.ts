import { apiRoute } from '@/lib/api/handler';
import { removeRoom } from '@/lib/rooms/remove';

// DELETE /api/room/{id} – remove a room that no scheduled meeting uses
export const DELETE = apiRoute<RouteContext<'/api/room/[id]'>, 'required'>({ auth: 'required' }, ({ user, params }) => removeRoom(user, params.id));
