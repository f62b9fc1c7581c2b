import 'server-only';
import { and, eq, ne, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import type { Database, Transaction } from '@/lib/db/client';
import { rooms, type Room } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';

type Db = Database | Transaction;

/** The user's own room `id`; another user's room answers as not found. */
export async function findOwnRoom(db: Db, ownerId: string, id: string): Promise<Room> {
  const [room] = isUuid(id)
    ? await db
        .select()
        .from(rooms)
        .where(and(eq(rooms.id, id), eq(rooms.ownerId, ownerId)))
    : [];
  if (!room) throw new ApiError('room_not_found');
  return room;
}

/** Refuses a name that another of the user's rooms has, whatever its case. */
export async function assertFreeRoomName(db: Db, ownerId: string, name: string, exceptId?: string) {
  const [taken] = await db
    .select({ id: rooms.id })
    .from(rooms)
    .where(and(eq(rooms.ownerId, ownerId), sql`lower(${rooms.name}) = lower(${name})`, exceptId ? ne(rooms.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw new ApiError('room_already_exists', { field: 'name' });
}

/** Takes the default flag from the user's rooms, before another room gets it (one per user). */
export async function clearDefaultRoom(db: Db, ownerId: string) {
  await db
    .update(rooms)
    .set({ isDefault: false })
    .where(and(eq(rooms.ownerId, ownerId), eq(rooms.isDefault, true)));
}
