import 'server-only';
import { cache } from 'react';
import { cookies } from 'next/headers';
import { eq, sql } from 'drizzle-orm';
import { getDb, type Database } from '@/lib/db/client';
import { revokedSessions, users, type User } from '@/lib/db/schema';
import { SESSION_COOKIE, unsealSession, type SessionData } from './session-cookie';

/**
 * The user a session belongs to, if the session is still valid: the account exists, is usable,
 * the cookie was not revoked (session version, or this cookie logged out) and the login is
 * complete (no pending 2FA step).
 */
export async function userForSession(session: SessionData | null): Promise<User | null> {
  if (!session || session.pending2fa) return null;
  const [row] = await sessionUserQuery(await getDb()).execute({ userId: session.userId, sid: session.sid ?? '' });
  if (!row || row.user.sessionVersion !== session.version || row.revoked !== null) return null;
  if (row.user.state !== 'active') return null;
  return row.user;
}

// Every authenticated request runs it: one round trip (the user and whether this cookie was
// logged out), prepared once per database, since building it cost more than running it.
// A cookie without an id (older than issue 16) looks up '', which no revoked row has.
const prepared = new WeakMap<Database, ReturnType<typeof prepareSessionUser>>();

function sessionUserQuery(db: Database) {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = prepareSessionUser(db)));
  return query;
}

function prepareSessionUser(db: Database) {
  return db
    .select({ user: users, revoked: revokedSessions.sid })
    .from(users)
    .leftJoin(revokedSessions, eq(revokedSessions.sid, sql.placeholder('sid')))
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('enclave_session_user');
}

/** For server components and pages: the logged-in user of this request, or null. */
export const getCurrentUser = cache(async (): Promise<User | null> => {
  const store = await cookies();
  return userForSession(await unsealSession(store.get(SESSION_COOKIE)?.value));
});
