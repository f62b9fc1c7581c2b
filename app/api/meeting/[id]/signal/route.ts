import { apiRoute } from '@/lib/api/handler';
import { clientMessageSchema, MAX_SIGNAL_BODY_BYTES } from '@/lib/meeting/protocol';
import { requireParticipant } from '@/lib/meeting/server/auth';
import { handleMessage } from '@/lib/meeting/server/relay';
import { openStream } from '@/lib/meeting/server/stream';

// A long-lived stream held in this process's memory: never cached, never on the edge.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/meeting/{id}/signal – the participant's event stream (Authorization: Bearer <join token>)
export const GET = apiRoute<{ id: string }, 'none'>({ auth: 'none' }, async ({ params, request }) =>
  openStream(await requireParticipant(request.headers, params.id), request.headers.get('last-event-id'), request.signal),
);

// POST /api/meeting/{id}/signal – one message up: a WebRTC signal (or several) for a peer, a host action, leave
export const POST = apiRoute<{ id: string }, 'none', typeof clientMessageSchema>(
  { auth: 'none', body: clientMessageSchema, maxBodyBytes: MAX_SIGNAL_BODY_BYTES },
  async ({ params, request, body }) => {
    await handleMessage(await requireParticipant(request.headers, params.id), body);
    return {};
  },
);
