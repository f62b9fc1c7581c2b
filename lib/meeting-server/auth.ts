import 'server-only';
import { ApiError } from '@/lib/errors';
import { getHub } from './get-hub';
import { bearerToken, verifyJoinToken, type JoinClaims } from './token';

/**
 * The join token's claims for this meeting: authentication_error 401 for a missing, forged,
 * expired or foreign token, 403 for the token of a participant the host removed.
 */
export async function requireParticipant(headers: Headers, meetingId: string): Promise<JoinClaims> {
  const claims = verifyJoinToken(bearerToken(headers), meetingId);
  if (!claims) throw new ApiError('authentication_error');
  const hub = await getHub();
  if (await hub.isBanned(meetingId, claims.participantId)) throw new ApiError('authentication_error', { status: 403 });
  return claims;
}
