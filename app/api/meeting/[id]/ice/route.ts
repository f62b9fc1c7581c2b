import { apiRoute } from '@/lib/api/handler';
import { requireParticipant } from '@/lib/meeting-server/auth';
import { iceServersFor } from '@/lib/meeting-server/ice';

export const dynamic = 'force-dynamic';

// GET /api/meeting/{id}/ice – STUN/TURN servers with time-limited TURN credentials
export const GET = apiRoute<RouteContext<'/api/meeting/[id]/ice'>, 'none'>({ auth: 'none' }, async ({ params, request }) =>
  iceServersFor((await requireParticipant(request.headers, params.id)).participantId),
);
