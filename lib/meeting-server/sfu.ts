import 'server-only';
import { ApiError } from '@/lib/errors';
import type { SfuTicket } from '@/lib/meeting/protocol';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { sfuConfigured } from '@/lib/sfu/nodes';
import { sfuTicketFor } from '@/lib/sfu/ticket';
import { getHub } from './get-hub';
import { isStale } from './hub';
import { findMeetingRoom } from './room';
import type { JoinClaims } from './token';

/**
 * POST /api/meeting/{id}/sfu: a participant's pass to the meeting's room on the SFU. Only for
 * someone in the call (admitted, not waiting at the door): 403 otherwise. room_not_found (404)
 * on a server without SFU_URLS and SFU_SECRET; too_many_attempts past limits.meetingSfu.
 */
export async function sfuTicket(claims: JoinClaims): Promise<SfuTicket> {
  const { meetingId, participantId } = claims;
  if (!sfuConfigured()) throw new ApiError('room_not_found');
  const entry = await (await getHub()).get(meetingId, participantId);
  if (!entry || isStale(entry) || entry.state !== 'admitted') throw new ApiError('authentication_error', { status: 403 });
  await consumeAttempt(limits.meetingSfu, `${meetingId}/${participantId}`);
  const { limit } = await findMeetingRoom(meetingId);
  return sfuTicketFor(meetingId, participantId, { publishers: limit });
}
