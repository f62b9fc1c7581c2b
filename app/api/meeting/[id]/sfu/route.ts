import { apiRoute } from '@/lib/api/handler';
import { requireParticipant } from '@/lib/meeting-server/auth';
import { sfuTicket } from '@/lib/meeting-server/sfu';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// POST /api/meeting/{id}/sfu – an admitted participant's pass to the meeting's Janus room
// (SfuTicket, lib/meeting/protocol.ts): the node's address, the room, a short-lived Janus token
// and the participant's room token. Authorization: Bearer <join token>, as for /ice.
export const POST = apiRoute<RouteContext<'/api/meeting/[id]/sfu'>, 'none'>({ auth: 'none' }, async ({ params, request }) =>
  sfuTicket(await requireParticipant(request.headers, params.id)),
);
