import 'server-only';
import { eq } from 'drizzle-orm';
import { changesOf } from '@/lib/db/update-set';
import { getDb } from '@/lib/db/client';
import { lockOwner } from '@/lib/db/owner-lock';
import { rooms, type User } from '@/lib/db/schema';
import { assertFreeRoomName, clearDefaultRoom, findOwnRoom } from './find';
import { roomPasswordColumns } from './password';
import type { RoomUpdate } from './schemas';
import { roomView, type RoomView } from './view';

/**
 * POST /api/room/update: name, colour, a new password (null removes it, '' keeps it), how its
 * calls carry media and the default flag. The flag only moves to a room: the default room cannot be unflagged on its own.
 */
export async function updateRoom(user: User, input: RoomUpdate): Promise<RoomView> {
  const password = await roomPasswordColumns(input);
  const db = await getDb();
  const room = await db.transaction(async (tx) => {
    await lockOwner(tx, user.id);
    const room = await findOwnRoom(tx, user.id, input.id);
    if (input.name !== undefined) await assertFreeRoomName(tx, user.id, input.name, room.id);
    const makeDefault = input.isDefault === true && !room.isDefault;
    if (makeDefault) await clearDefaultRoom(tx, user.id);
    const changes = changesOf({
      name: input.name,
      color: input.color,
      mediaRoute: input.mediaRoute,
      ...password,
      isDefault: makeDefault || undefined,
    });
    if (!changes) return room;
    const [row] = await tx.update(rooms).set(changes).where(eq(rooms.id, room.id)).returning();
    return row!;
  });
  return roomView(room);
}
