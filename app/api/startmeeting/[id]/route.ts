import { apiRoute } from '@/lib/api/handler';
import { startMeeting } from '@/lib/rooms/start';

// GET /api/startmeeting/{id} – what the meeting page needs to start the room's meeting
export const GET = apiRoute<RouteContext<'/api/startmeeting/[id]'>, 'required'>({ auth: 'required' }, ({ user, params }) => startMeeting(user, params.id));
