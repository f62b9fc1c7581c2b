import 'server-only';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { lockOwner } from '@/lib/db/owner-lock';
import { events, rooms, type User } from '@/lib/db/schema';
import { findOwnRoom } from './find';

/**
 * DELETE /api/room/{id}: refused while a meeting that is not cancelled uses the room. When the
 * default room goes, the oldest remaining room becomes the default.
 */
export async function removeRoom(user: User, id: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await lockOwner(tx, user.id);
    const room = await findOwnRoom(tx, user.id, id);
    const [inUse] = await tx
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.roomId, room.id), isNull(events.cancelledAt)))
      .limit(1);
    if (inUse) throw new ApiError('cant_remove_room');
    // Cancelled meetings stay in the history without their room (the foreign key restricts).
    await tx.update(events).set({ roomId: null }).where(eq(events.roomId, room.id));
    await tx.delete(rooms).where(eq(rooms.id, room.id));
    if (!room.isDefault) return;
    const [oldest] = await tx.select({ id: rooms.id }).from(rooms).where(eq(rooms.ownerId, user.id)).orderBy(asc(rooms.createdAt), asc(rooms.id)).limit(1);
    if (oldest) await tx.update(rooms).set({ isDefault: true }).where(eq(rooms.id, oldest.id));
  });
}
