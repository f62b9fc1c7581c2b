import 'server-only';
import { desc, ilike, or } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';

export interface AdminUserView {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: 'user' | 'admin';
  accountType: 'individual' | 'executive' | 'enterprise';
  numberOfRooms: number;
  isTrial: boolean;
  trialEndsAt: string;
  state: 'unverified' | 'active' | 'expired' | 'disabled';
  enableMCard: boolean;
  registrationDate: string;
}

/** LIKE's own wildcards in a search text are meant literally. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The instance's accounts, newest first; `query` searches e-mail and names. */
export async function listUsers(query = '', limit = 200): Promise<AdminUserView[]> {
  const db = await getDb();
  const q = query.trim().slice(0, 100);
  const rows = await db
    .select()
    .from(users)
    .where(q ? or(ilike(users.email, likeText(q)), ilike(users.firstName, likeText(q)), ilike(users.lastName, likeText(q))) : undefined)
    .orderBy(desc(users.registrationDate))
    .limit(limit);
  return rows.map((user) => ({
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    accountType: user.accountType,
    numberOfRooms: user.numberOfRooms,
    isTrial: user.isTrial,
    trialEndsAt: user.trialEndsAt.toISOString(),
    state: user.state,
    enableMCard: user.enableMCard,
    registrationDate: user.registrationDate.toISOString(),
  }));
}
