import 'server-only';
import { eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { isMeetingId } from '@/lib/meeting-address';
import { getDb } from '@/lib/db/client';
import { rooms, users, type Room, type User } from '@/lib/db/schema';
import { trialEnded } from '@/lib/billing/trial';
import { billingOn } from '@/lib/configuration/billing-mode';
import { privateLimits } from '@/lib/rooms/private-limits';
import { participantLimit } from '@/lib/rooms/limits';

export interface MeetingRoom {
  room: Room;
  owner: User;
  limit: number;
}

/**
 * The room behind a meeting id, with its owner (whose plan sets the participant limit). With
 * billing on, a trial that ended without a plan holds no more meetings until its owner subscribes
 * (docs/billing.md); a server without billing has no trial (issue 35).
 */
export async function findMeetingRoom(meetingId: string): Promise<MeetingRoom> {
  if (!isMeetingId(meetingId)) throw new ApiError('room_not_found');
  const db = await getDb();
  const [row] = await db
    .select({ room: rooms, owner: users })
    .from(rooms)
    .innerJoin(users, eq(users.id, rooms.ownerId))
    .where(eq(rooms.meetingId, meetingId))
    .limit(1);
  if (!row) throw new ApiError('room_not_found');
  if (billingOn() && trialEnded(row.owner)) throw new ApiError('trial_ended');
  return { ...row, limit: participantLimit(row.owner, await privateLimits()) };
}
