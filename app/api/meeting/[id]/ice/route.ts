import { apiRoute } from '@/lib/api/handler';
import { requireParticipant } from '@/lib/meeting/server/auth';
import { iceServersFor } from '@/lib/meeting/server/ice';

// GET /api/meeting/{id}/ice – STUN/TURN servers with time-limited TURN credentials
export const GET = apiRoute<{ id: string }, 'none'>({ auth: 'none' }, ({ params, request }) =>
  iceServersFor(requireParticipant(request.headers, params.id).participantId),
);
