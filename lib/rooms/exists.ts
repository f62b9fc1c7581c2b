import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { rooms } from '@/lib/db/schema';

/** Whether the user has set up a room yet (the first-time setup asks for one). */
export async function hasAnyRoom(userId: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db.select({ id: rooms.id }).from(rooms).where(eq(rooms.ownerId, userId)).limit(1);
  return Boolean(row);
}
