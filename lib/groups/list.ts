import 'server-only';
import { asc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { groupMembers, groups } from '@/lib/db/schema';
import { groupView, type GroupView } from './view';

/** GET /api/groups: the user's groups by name, each with its contacts' ids. */
export async function listGroups(ownerId: string): Promise<GroupView[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(groups)
    .where(eq(groups.ownerId, ownerId))
    .orderBy(sql`lower(${groups.name})`, asc(groups.id));
  const members = await db
    .select({ groupId: groupMembers.groupId, attendeeId: groupMembers.attendeeId })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(eq(groups.ownerId, ownerId));
  return rows.map((group) =>
    groupView(
      group,
      members.filter((member) => member.groupId === group.id).map((member) => member.attendeeId),
    ),
  );
}
