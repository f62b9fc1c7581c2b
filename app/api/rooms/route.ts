import { apiRoute } from '@/lib/api/handler';
import { listRooms } from '@/lib/rooms/list';

// GET /api/rooms – the user's rooms
export const GET = apiRoute({ auth: 'required' }, ({ user }) => listRooms(user.id));
