import 'server-only';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import type { Transaction } from '@/lib/db/client';
import { attendees } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { GROUP_MIN_CONTACTS } from './schemas';

/**
 * The contact ids of a group's `attendees` (ids, or e-mails mapped to ids). Every entry must be
 * one of the owner's own contacts; anything else answers attendee_not_found.
 */
export async function resolveMembers(tx: Transaction, ownerId: string, entries: string[]): Promise<string[]> {
  const emails = entries.filter((entry) => entry.includes('@'));
  const ids = entries.filter((entry) => !entry.includes('@'));
  const notFound = new ApiError('attendee_not_found', { field: 'attendees' });
  if (!ids.every(isUuid)) throw notFound;
  const byId = ids.length ? inArray(attendees.id, ids) : undefined;
  const byEmail = emails.length ? inArray(sql`lower(${attendees.email})`, emails) : undefined;
  const rows = await tx
    .select({ id: attendees.id, email: attendees.email })
    .from(attendees)
    .where(and(eq(attendees.ownerId, ownerId), or(byId, byEmail)));
  const found = new Set(rows.flatMap((row) => [row.id, row.email.toLowerCase()]));
  if (!entries.every((entry) => found.has(entry))) throw notFound;
  const members = rows.map((row) => row.id);
  // An id and the e-mail of the same contact count once.
  if (members.length < GROUP_MIN_CONTACTS) throw new ApiError('incorrect_data', { field: 'attendees' });
  return members;
}
