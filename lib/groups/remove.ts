import 'server-only';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { groups, type User } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';

/** DELETE /api/groups/{id}: the group goes, its contacts stay. */
export async function removeGroup(user: User, id: string): Promise<void> {
  const db = await getDb();
  const removed = isUuid(id)
    ? await db
        .delete(groups)
        .where(and(eq(groups.id, id), eq(groups.ownerId, user.id)))
        .returning({ id: groups.id })
    : [];
  if (removed.length === 0) throw new ApiError('attendee_not_found');
}
