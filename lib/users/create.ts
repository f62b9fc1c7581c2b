import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Database } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { isUniqueViolation, USERS_EMAIL_INDEX } from '@/lib/db/unique-violation';
import { users, type NewUser, type User } from '@/lib/db/schema';

/** SPEC points 4 and 9: a 14-day free trial starts when the account is created. */
export const TRIAL_DAYS = 14;

/** A random, URL-safe hash for the user's own meeting link ({meetServer}/{hash}). */
export function newUserHash(): string {
  return randomBytes(12).toString('base64url');
}

type UserInput = Pick<NewUser, 'email' | 'firstName' | 'lastName' | 'passwordHash'> & Partial<NewUser>;

/**
 * Inserts a user with the defaults every new account gets. Callers look the address up first; two
 * requests for one address at the same instant both pass that look-up, and the later insert meets
 * the unique index: it answers `email_exists` like the look-up would have, never a 500.
 */
export async function insertUser(db: Database, input: UserInput, now = new Date()): Promise<User> {
  try {
    const [user] = await db
      .insert(users)
      .values({
        hash: newUserHash(),
        trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * 24 * 60 * 60 * 1000),
        ...input,
        email: input.email.trim().toLowerCase(),
      })
      .returning();
    return user!;
  } catch (error) {
    if (isUniqueViolation(error, USERS_EMAIL_INDEX)) throw new ApiError('email_exists', { field: 'email' });
    throw error;
  }
}
