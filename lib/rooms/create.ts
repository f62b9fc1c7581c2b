import 'server-only';
import { count, eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { lockOwner } from '@/lib/db/owner-lock';
import { rooms, type User } from '@/lib/db/schema';
import { assertFreeRoomName, clearDefaultRoom } from './find';
import { privateLimits } from '@/lib/rooms/private-limits';
import { roomLimit } from './limits';
import { NO_PASSWORD, roomPasswordColumns } from './password';
import type { RoomInput } from './schemas';
import { newMeetingId, roomView, type RoomView } from './view';
import { DEFAULT_COLOR } from '@/lib/colors';

/** POST /api/room: a new room within the plan's limit; the user's first room is the default. */
export async function createRoom(user: User, input: RoomInput): Promise<RoomView> {
  const password = (await roomPasswordColumns(input)) ?? NO_PASSWORD;
  const db = await getDb();
  const limits = await privateLimits();
  const room = await db.transaction(async (tx) => {
    const owner = await lockOwner(tx, user.id);
    const [{ rooms: owned } = { rooms: 0 }] = await tx.select({ rooms: count() }).from(rooms).where(eq(rooms.ownerId, owner.id));
    if (owned >= roomLimit(owner, limits)) throw new ApiError('room_max_limit');
    await assertFreeRoomName(tx, owner.id, input.name);
    const isDefault = owned === 0 || input.isDefault === true;
    if (isDefault) await clearDefaultRoom(tx, owner.id);
    const [row] = await tx
      .insert(rooms)
      .values({
        ownerId: owner.id,
        name: input.name,
        color: input.color ?? DEFAULT_COLOR,
        isDefault,
        mediaRoute: input.mediaRoute ?? 'auto',
        // "Managed by" (SPEC point 6): the account that creates the room administers it.
        adminName: `${owner.firstName} ${owner.lastName}`,
        adminEmail: owner.email,
        ...password,
        meetingId: newMeetingId(),
      })
      .returning();
    return row!;
  });
  return roomView(room);
}
