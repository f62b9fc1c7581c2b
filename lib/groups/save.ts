import 'server-only';
import { and, eq, ne, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { changesOf } from '@/lib/db/update-set';
import { getDb, type Transaction } from '@/lib/db/client';
import { lockOwner } from '@/lib/db/owner-lock';
import { groupMembers, groups, type User } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { resolveMembers } from './members';
import type { GroupInput, GroupUpdate } from './schemas';
import { groupView, type GroupView } from './view';
import { DEFAULT_COLOR } from '@/lib/colors';

async function assertFreeGroupName(tx: Transaction, ownerId: string, name: string, exceptId?: string) {
  const [taken] = await tx
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.ownerId, ownerId), sql`lower(${groups.name}) = lower(${name})`, exceptId ? ne(groups.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw new ApiError('group_name_exists', { field: 'name' });
}

async function setMembers(tx: Transaction, groupId: string, members: string[]) {
  await tx.delete(groupMembers).where(eq(groupMembers.groupId, groupId));
  await tx.insert(groupMembers).values(members.map((attendeeId) => ({ groupId, attendeeId })));
}

/** POST /api/groups */
export async function createGroup(user: User, input: GroupInput): Promise<GroupView> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await lockOwner(tx, user.id);
    await assertFreeGroupName(tx, user.id, input.name);
    const members = await resolveMembers(tx, user.id, input.attendees);
    const [group] = await tx
      .insert(groups)
      .values({ ownerId: user.id, name: input.name, color: input.color ?? DEFAULT_COLOR })
      .returning();
    await setMembers(tx, group!.id, members);
    return groupView(group!, members);
  });
}

/**
 * POST /api/groups/update. Groups belong to the address book of /attendees, so another user's
 * group answers attendee_not_found (404), like a contact (docs/decisions.md).
 */
export async function updateGroup(user: User, input: GroupUpdate): Promise<GroupView> {
  if (!isUuid(input.id)) throw new ApiError('attendee_not_found');
  const db = await getDb();
  return db.transaction(async (tx) => {
    await lockOwner(tx, user.id);
    const own = and(eq(groups.id, input.id), eq(groups.ownerId, user.id));
    const [existing] = await tx.select().from(groups).where(own);
    if (!existing) throw new ApiError('attendee_not_found');
    if (input.name !== undefined) await assertFreeGroupName(tx, user.id, input.name, existing.id);
    if (input.attendees) await setMembers(tx, existing.id, await resolveMembers(tx, user.id, input.attendees));
    const changes = changesOf({ name: input.name, color: input.color });
    const [group] = changes ? await tx.update(groups).set(changes).where(own).returning() : [existing];
    const members = await tx.select({ id: groupMembers.attendeeId }).from(groupMembers).where(eq(groupMembers.groupId, existing.id));
    return groupView(
      group!,
      members.map((member) => member.id),
    );
  });
}
