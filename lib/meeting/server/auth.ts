import 'server-only';
import { ApiError } from '@/lib/api/errors';
import { bearerToken, verifyJoinToken, type JoinClaims } from './token';

/** The join token's claims for this meeting, or authentication_error (401). */
export function requireParticipant(headers: Headers, meetingId: string): JoinClaims {
  const claims = verifyJoinToken(bearerToken(headers), meetingId);
  if (!claims) throw new ApiError('authentication_error');
  return claims;
}
