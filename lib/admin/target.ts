import 'server-only';
import { eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import type { Database, Transaction } from '@/lib/db/client';
import { users, type User } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { userEmailIs } from '@/lib/db/user-email';

/** An account named by its id (the admin area) or its e-mail (the operator CLI). */
export type UserRef = { id: string } | { email: string };

/** The account, locked for the change (FOR UPDATE), or user_not_found. */
export async function lockTarget(tx: Database | Transaction, ref: UserRef): Promise<User> {
  if ('id' in ref && !isUuid(ref.id)) throw new ApiError('user_not_found');
  const where = 'id' in ref ? eq(users.id, ref.id) : userEmailIs(ref.email);
  const [user] = await tx.select().from(users).where(where).for('update').limit(1);
  if (!user) throw new ApiError('user_not_found');
  return user;
}
