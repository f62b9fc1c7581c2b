import 'server-only';
import { cache } from 'react';
import { cookies } from 'next/headers';
import { eq, sql } from 'drizzle-orm';
import { getDb, type Database } from '@/lib/db/client';
import { copiesPerDatabase } from '@/lib/db/committed-copies';
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
  const { userId } = session;
  const sid = session.sid ?? '';
  const row = await sessionRows(db).read(`${userId} ${sid}`, [`users:${userId}`, `revoked_sessions:${sid}`], async () => {
    const [found] = await sessionUserQuery(db).execute({ userId, sid });
    return found;
  });
  if (!row || row.user.sessionVersion !== session.version || row.revoked !== null) return null;
  if (row.user.state !== 'active') return null;
  // A copy: the row may be kept for the next request (sessionRows), and callers may change theirs.
  return { ...row.user };
}

/**
 * On the embedded database, each session's row is kept in memory until the user's row changes or
 * the session is logged out (lib/db/committed-copies.ts). A few KB each, at most this many.
 */
export const SESSION_ROWS_KEPT = 5_000;
const sessionRows = copiesPerDatabase<{ user: User; revoked: string | null } | undefined>(SESSION_ROWS_KEPT);

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
