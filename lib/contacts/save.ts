import 'server-only';
import { and, eq, ne, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { changesOf } from '@/lib/db/update-set';
import { getDb, type Transaction } from '@/lib/db/client';
import { lockOwner } from '@/lib/db/owner-lock';
import { attendees, type User } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { normalizeTimezone } from '@/lib/time/timezones';
import { normalizePhone } from './phone';
import type { ContactInput, ContactUpdate } from './schemas';
import { contactView, type ContactView } from './view';
import { DEFAULT_COLOR } from '@/lib/colors';

/** SPEC point 5: not the user's own address, and no address twice (whatever its case). */
async function assertUsableEmail(tx: Transaction, owner: User, email: string, exceptId?: string) {
  if (email === owner.email.toLowerCase()) throw new ApiError('incorrect_email', { field: 'email' });
  const [taken] = await tx
    .select({ id: attendees.id })
    .from(attendees)
    .where(and(eq(attendees.ownerId, owner.id), sql`lower(${attendees.email}) = ${email}`, exceptId ? ne(attendees.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw new ApiError('contact_exists', { field: 'email' });
}

/** The columns a change writes; undefined leaves a column as it is. */
function columns(input: Partial<ContactInput>) {
  // The schema has checked the number; the country and dial code come from it, not the client.
  const phone = input.phoneNumber ? normalizePhone(input.phoneNumber, input.countryCode) : null;
  return {
    name: input.name,
    email: input.email,
    ...(input.phoneNumber === undefined
      ? {}
      : { phoneNumber: phone?.phoneNumber ?? null, countryCode: phone?.countryCode ?? null, dialCode: phone?.dialCode ?? null }),
    color: input.color,
    lang: input.lang,
    timezone: input.timezone === undefined ? undefined : input.timezone ? normalizeTimezone(input.timezone) : null,
  };
}

/** POST /api/attendee */
export async function createContact(user: User, input: ContactInput): Promise<ContactView> {
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    const owner = await lockOwner(tx, user.id);
    await assertUsableEmail(tx, owner, input.email);
    const [created] = await tx
      .insert(attendees)
      .values({ ...columns(input), color: input.color ?? DEFAULT_COLOR, name: input.name, email: input.email, ownerId: owner.id })
      .returning();
    return created!;
  });
  return contactView(row);
}

/** POST /api/attendee/update: another user's contact answers as not found. */
export async function updateContact(user: User, input: ContactUpdate): Promise<ContactView> {
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    if (!isUuid(input.id)) throw new ApiError('attendee_not_found');
    const owner = await lockOwner(tx, user.id);
    const own = and(eq(attendees.ownerId, owner.id), eq(attendees.id, input.id));
    const [existing] = await tx.select().from(attendees).where(own);
    if (!existing) throw new ApiError('attendee_not_found');
    if (input.email !== undefined) await assertUsableEmail(tx, owner, input.email, existing.id);
    const changes = changesOf(columns(input));
    if (!changes) return existing;
    const [updated] = await tx.update(attendees).set(changes).where(own).returning();
    return updated!;
  });
  return contactView(row);
}
