import { apiRoute } from '@/lib/api/handler';
import { removeRoom } from '@/lib/rooms/remove';

// DELETE /api/room/{id} – remove a room that no scheduled meeting uses
export const DELETE = apiRoute<{ id: string }, 'required'>({ auth: 'required' }, ({ user, params }) =>
  removeRoom(user, params.id),
);
