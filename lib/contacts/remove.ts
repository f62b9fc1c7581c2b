import 'server-only';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { attendees, type User } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';

/**
 * DELETE /api/attendee/{id}. The contact leaves its groups (the foreign key cascades); a group
 * left with fewer than two contacts stays, see docs/decisions.md.
 */
export async function removeContact(user: User, id: string): Promise<void> {
  const db = await getDb();
  const removed = isUuid(id)
    ? await db
        .delete(attendees)
        .where(and(eq(attendees.id, id), eq(attendees.ownerId, user.id)))
        .returning({ id: attendees.id })
    : [];
  if (removed.length === 0) throw new ApiError('attendee_not_found');
}
