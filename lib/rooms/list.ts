import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { rooms } from '@/lib/db/schema';
import { roomView, type RoomView } from './view';

/** GET /api/rooms: the user's rooms, oldest first. */
export async function listRooms(ownerId: string): Promise<RoomView[]> {
  const db = await getDb();
  const rows = await db.select().from(rooms).where(eq(rooms.ownerId, ownerId)).orderBy(asc(rooms.createdAt), asc(rooms.id));
  return rows.map(roomView);
}
