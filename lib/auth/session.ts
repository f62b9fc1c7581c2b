import 'server-only';
import { cache } from 'react';
import { cookies } from 'next/headers';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { revokedSessions, users, type User } from '@/lib/db/schema';
import { SESSION_COOKIE, unsealSession, type SessionData } from './session-cookie';

/**
 * The user a session belongs to, if the session is still valid: the account exists, is usable,
 * the cookie was not revoked (session version, or this cookie logged out) and the login is
 * complete (no pending 2FA step).
 */
export async function userForSession(session: SessionData | null): Promise<User | null> {
  if (!session || session.pending2fa) return null;
  const db = await getDb();
  const [[user], revoked] = await Promise.all([
    db.select().from(users).where(eq(users.id, session.userId)).limit(1),
    session.sid
      ? db.select({ sid: revokedSessions.sid }).from(revokedSessions).where(eq(revokedSessions.sid, session.sid)).limit(1)
      : Promise.resolve([]),
  ]);
  if (!user || user.sessionVersion !== session.version || revoked.length > 0) return null;
  if (user.state !== 'active') return null;
  return user;
}

/** For server components and pages: the logged-in user of this request, or null. */
export const getCurrentUser = cache(async (): Promise<User | null> => {
  const store = await cookies();
  return userForSession(await unsealSession(store.get(SESSION_COOKIE)?.value));
});
