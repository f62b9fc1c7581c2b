import 'server-only';
import { asc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { attendees } from '@/lib/db/schema';
import { contactView, type ContactView } from './view';

/** GET /api/attendees: the user's contacts by name. */
export async function listContacts(ownerId: string): Promise<ContactView[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(attendees)
    .where(eq(attendees.ownerId, ownerId))
    .orderBy(sql`lower(${attendees.name})`, asc(attendees.id));
  return rows.map(contactView);
}
