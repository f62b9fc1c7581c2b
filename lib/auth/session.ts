import 'server-only';
import { cache } from 'react';
import { cookies } from 'next/headers';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { users, type User } from '@/lib/db/schema';
import { SESSION_COOKIE, unsealSession, type SessionData } from './session-cookie';

/**
 * The user a session belongs to, if the session is still valid: the account exists, is usable,
 * the cookie was not revoked (session version) and the login is complete (no pending 2FA step).
 */
export async function userForSession(session: SessionData | null): Promise<User | null> {
  if (!session || session.pending2fa) return null;
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, session.userId)).limit(1);
  if (!user || user.sessionVersion !== session.version) return null;
  if (user.state !== 'active') return null;
  return user;
}

/** For server components and pages: the logged-in user of this request, or null. */
export const getCurrentUser = cache(async (): Promise<User | null> => {
  const store = await cookies();
  return userForSession(await unsealSession(store.get(SESSION_COOKIE)?.value));
});
