import 'server-only';
import { ApiError } from '@/lib/errors';
import { apiRoute } from '@/lib/api/handler';
import { refuseSignal } from '@/lib/metrics/meeting';
import { MAX_SIGNAL_BODY_BYTES } from '@/lib/meeting/protocol';
import { clientMessageSchema } from '@/lib/meeting/protocol.schema';
import { requireParticipant } from './auth';
import { handleMessage } from './relay';

/**
 * POST /api/meeting/{id}/signal – one message up: a WebRTC signal (or several) for a peer, a host
 * action, leave. The route exports it, and the server layer's fast path (signal-fast-path.ts)
 * calls it too: one handler, whichever way a request comes in.
 */
export const postSignal = apiRoute<RouteContext<'/api/meeting/[id]/signal'>, 'none', typeof clientMessageSchema>(
  { auth: 'none', body: clientMessageSchema, maxBodyBytes: MAX_SIGNAL_BODY_BYTES },
  async ({ params, request, body }) => {
    const claims = await requireParticipant(request.headers, params.id).catch((error: unknown) => {
      throw error instanceof ApiError ? refuseSignal('token', error) : error;
    });
    await handleMessage(claims, body);
    return {};
  },
);
