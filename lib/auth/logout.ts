import 'server-only';
import { eq, lt, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { revokedSessions, users } from '@/lib/db/schema';
import { SESSION_TTL_SECONDS, type SessionData } from './session-cookie';

/**
 * Ends a session on the server, so that a copy of its cookie no longer counts (issue 16, item 3):
 * the cookie's id is refused until the cookie would have expired anyway. A cookie from before
 * session ids has none: its user's session version is raised, ending all such cookies.
 */
export async function endSession(session: SessionData): Promise<void> {
  const db = await getDb();
  if (!session.sid) {
    await db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, session.userId));
    return;
  }
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000);
  await db.transaction(async (tx) => {
    await tx.delete(revokedSessions).where(lt(revokedSessions.expiresAt, new Date()));
    await tx.insert(revokedSessions).values({ sid: session.sid!, expiresAt }).onConflictDoNothing();
  });
}

/**
 * Fetch metadata of a navigation that another site started (a link, an image, a form there):
 * such a request must not end the session (logout CSRF). Browsers without the header are let through.
 */
export function isCrossSite(headers: Headers): boolean {
  const site = headers.get('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}
