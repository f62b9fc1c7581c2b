import 'server-only';
import { ApiError } from '@/lib/errors';
import { verifyPassword } from '@/lib/auth/password';
import type { User } from '@/lib/db/schema';
import { config } from '@/lib/environment';
import type { JoinAnswer, MeetingInfo } from '@/lib/meeting/protocol';
import type { JoinRequest } from '@/lib/meeting/protocol.schema';
import { countJoin, countRefusedJoin } from '@/lib/metrics/meeting';
import { clientIp, consumeAttempt, limits } from '@/lib/security/rate-limit';
import { sfuConfigured } from '@/lib/sfu/nodes';
import { getHub } from './get-hub';
import type { RosterEntry } from './hub';
import { iceServersFor } from './ice';
import { liveRoster } from './roster';
import { findMeetingRoom } from './room';
import { newParticipantId, signJoinToken } from './token';

const fullName = (user: User) => `${user.firstName} ${user.lastName}`.trim();

/** GET /api/meeting/{id}: what the lobby shows before anyone joins. */
export async function meetingInfo(meetingId: string, user: User | null): Promise<MeetingInfo> {
  const { room, limit } = await findMeetingRoom(meetingId);
  const hub = await getHub();
  const roster = await liveRoster(hub, meetingId);
  return {
    meetingId,
    roomName: room.name,
    hasPassword: room.passwordHash !== null,
    passwordSalt: room.passwordHash !== null ? room.passwordSalt : null,
    askToJoin: room.askToJoin,
    mediaRoute: room.mediaRoute,
    sfu: sfuConfigured(),
    isHost: user?.id === room.ownerId,
    userName: user ? fullName(user) : null,
    maxParticipants: limit,
    participantCount: roster.filter((entry) => entry.state === 'admitted').length,
    locked: await hub.isLocked(meetingId),
  };
}

/**
 * POST /api/meeting/{id}/join: the gate. When the room has a password everyone shows the proof
 * derived from it — the owner too, whose browser needs the password for the call's key anyway
 * (docs/e2ee-crypto.md "Secrets"); nobody gets a seat past the owner's participant limit.
 */
export async function joinMeeting(meetingId: string, input: JoinRequest, user: User | null, headers: Headers): Promise<JoinAnswer> {
  const startedAt = performance.now();
  try {
    const answer = await join(meetingId, input, user, headers);
    countJoin(answer.admitted ? 'admitted' : 'waiting', (performance.now() - startedAt) / 1000);
    return answer;
  } catch (error) {
    countRefusedJoin(error);
    throw error;
  }
}

async function join(meetingId: string, input: JoinRequest, user: User | null, headers: Headers): Promise<JoinAnswer> {
  const ip = clientIp(headers);
  await consumeAttempt(limits.meetingJoin, ip);
  const { room, limit } = await findMeetingRoom(meetingId);
  const isHost = user?.id === room.ownerId;

  if (room.passwordHash) {
    await consumeAttempt(limits.meetingPassword, `${ip}:${meetingId}`);
    if (!input.passwordProof || !(await verifyPassword(room.passwordHash, input.passwordProof)))
      throw new ApiError('incorrect_password', { field: 'password' });
  }
  const name = (input.name?.trim() || (user ? fullName(user) : '')).slice(0, 60);
  if (!name) throw new ApiError('missing_data', { field: 'name' });

  const hub = await getHub();
  const participantId = newParticipantId();
  const now = Date.now();
  await liveRoster(hub, meetingId); // drop seats of vanished instances before counting
  const entry: RosterEntry = {
    id: participantId,
    name,
    isHost,
    state: 'joining',
    seen: now,
    joinedAt: now,
    instance: null,
    keyRequest: input.keyRequest,
    roomAsksToJoin: room.askToJoin,
  };
  const reserved = await hub.reserve(meetingId, entry, limit);
  if (!reserved) throw new ApiError('meeting_full');

  const admitted = isHost || (!room.askToJoin && !(await hub.isLocked(meetingId)));
  return {
    token: signJoinToken({ meetingId, participantId, name, isHost }),
    self: { id: participantId, name, isHost },
    admitted,
    maxParticipants: limit,
    roomName: room.name,
    ice: iceServersFor(participantId),
    fileLimitBytes: config.meetingFileLimitMb * 1024 * 1024,
  };
}
