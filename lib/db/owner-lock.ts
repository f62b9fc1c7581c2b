import 'server-only';
import { eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import type { Transaction } from './client';
import { users, type User } from './schema';

/**
 * Locks the owner's row for the rest of the transaction, so that one user's concurrent writes to
 * what they own run one after another: a limit or uniqueness checked first still holds when the
 * row is written. Answers the fresh user row.
 */
export async function lockOwner(tx: Transaction, userId: string): Promise<User> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user) throw new ApiError('authentication_error');
  return user;
}
