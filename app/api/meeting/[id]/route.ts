import { apiRoute } from '@/lib/api/handler';
import { meetingInfo } from '@/lib/meeting-server/join';

// GET /api/meeting/{id} – what the lobby shows: the room, its password and admission rules
export const GET = apiRoute<RouteContext<'/api/meeting/[id]'>>({ auth: 'optional' }, ({ params, user }) => meetingInfo(params.id, user));
