import 'server-only';
import { and, eq, or } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { rooms, type User } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { privateLimits } from '@/lib/rooms/private-limits';
import { participantLimit } from './limits';
import { meetingLink } from './view';

/**
 * GET /api/startmeeting/{id}: what the owner's meeting page needs to start the room's meeting.
 * `id` is the room's id (from the rooms list) or its meeting id (from the /now/{id} page).
 */
export async function startMeeting(user: User, id: string) {
  const db = await getDb();
  const [room] =
    id.length <= 64
      ? await db
          .select()
          .from(rooms)
          .where(and(eq(rooms.ownerId, user.id), isUuid(id) ? or(eq(rooms.id, id), eq(rooms.meetingId, id)) : eq(rooms.meetingId, id)))
          .limit(1)
      : [];
  if (!room) throw new ApiError('room_not_found');
  return {
    id: room.id,
    name: room.name,
    color: room.color,
    meetingId: room.meetingId,
    link: meetingLink(room.meetingId),
    hasPassword: room.passwordHash !== null,
    askToJoin: room.askToJoin,
    maxParticipants: participantLimit(user, await privateLimits()),
    host: { name: `${user.firstName} ${user.lastName}`, email: user.email },
  };
}
