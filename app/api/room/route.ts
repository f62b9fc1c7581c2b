import { apiRoute } from '@/lib/api/handler';
import { createRoom } from '@/lib/rooms/create';
import { roomSchema } from '@/lib/rooms/schemas';

// POST /api/room – add a room (name, color, password, isDefault)
export const POST = apiRoute({ auth: 'required', body: roomSchema }, async ({ user, body }) => ({
  room: await createRoom(user, body),
}));
