import { apiRoute } from '@/lib/api/handler';
import { joinRequestSchema } from '@/lib/meeting/protocol';
import { joinMeeting } from '@/lib/meeting/server/join';

// POST /api/meeting/{id}/join {name?, password?} – a join token, after the password and limits
export const POST = apiRoute<{ id: string }, 'optional', typeof joinRequestSchema>(
  { auth: 'optional', body: joinRequestSchema, maxBodyBytes: 4096 },
  ({ params, body, user, request }) => joinMeeting(params.id, body, user, request.headers),
);
