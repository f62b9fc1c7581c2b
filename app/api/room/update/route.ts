import { apiRoute } from '@/lib/api/handler';
import { roomUpdateSchema } from '@/lib/rooms/schemas';
import { updateRoom } from '@/lib/rooms/update';

// POST /api/room/update – change a room (id plus name, color, password, isDefault)
export const POST = apiRoute({ auth: 'required', body: roomUpdateSchema }, async ({ user, body }) => ({
  room: await updateRoom(user, body),
}));
