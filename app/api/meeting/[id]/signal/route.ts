import { apiRoute } from '@/lib/api/handler';
import { requireParticipant } from '@/lib/meeting-server/auth';
import { postSignal } from '@/lib/meeting-server/signal-post';
import { openStream } from '@/lib/meeting-server/stream';

// A long-lived stream held in this process's memory: never cached, never on the edge.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/meeting/{id}/signal – the participant's event stream (Authorization: Bearer <join token>)
export const GET = apiRoute<RouteContext<'/api/meeting/[id]/signal'>, 'none'>({ auth: 'none' }, async ({ params, request }) =>
  openStream(await requireParticipant(request.headers, params.id), request.headers.get('last-event-id'), request.signal),
);

// POST /api/meeting/{id}/signal – one message up (lib/meeting-server/signal-post.ts; server/server.mjs
// answers most of them through the same handler without Next.js's routing: signal-fast-path.ts)
export const POST = postSignal;
