import { apiRoute } from '@/lib/api/handler';
import { joinRequestSchema } from '@/lib/meeting/protocol.schema';
import { joinMeeting } from '@/lib/meeting-server/join';
import { openStream } from '@/lib/meeting-server/stream';
import { verifyJoinToken } from '@/lib/meeting-server/token';

// A long-lived stream (when asked for) held in this process's memory: never cached, never on the edge.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// POST /api/meeting/{id}/join {name?, password?} – a join token, after the password and limits.
// With `Accept: text/event-stream` the answer is the participant's event stream itself, its
// first event `joined` carrying the same answer: one round trip fewer than POST, then GET
// …/signal (issue 17; docs/meetings.md). Errors answer as JSON either way.
export const POST = apiRoute<RouteContext<'/api/meeting/[id]/join'>, 'optional', typeof joinRequestSchema>(
  { auth: 'optional', body: joinRequestSchema, maxBodyBytes: 4096 },
  async ({ params, body, user, request }) => {
    const answer = await joinMeeting(params.id, body, user, request.headers);
    const claims = request.headers.get('accept')?.includes('text/event-stream') ? verifyJoinToken(answer.token, params.id) : null;
    return claims ? openStream(claims, null, request.signal, { status: 'ok', ...answer }) : answer;
  },
);
