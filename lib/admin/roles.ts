import 'server-only';
import { asc, eq, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { writeAudit, type Actor } from '@/lib/audit/audit-log';
import { lockTarget, type UserRef } from './target';

export type Role = 'user' | 'admin';

/**
 * Gives or takes the admin role. The session cookie carries the role (the proxy's redirect reads
 * it), so the change ends the account's sessions: the next login carries the new role. An admin
 * cannot take their own role away in the admin area (the CLI can), so nobody locks themselves out.
 */
export async function setRole(ref: UserRef, role: Role, actor: Actor): Promise<{ email: string; changed: boolean }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const user = await lockTarget(tx, ref);
    if (actor.id === user.id && role !== 'admin') throw new ApiError('incorrect_data', { field: 'role' });
    if (user.role === role) return { email: user.email, changed: false };
    await tx
      .update(users)
      .set({ role, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    await writeAudit(tx, actor, role === 'admin' ? 'grant_admin' : 'revoke_admin', { userId: user.id, label: user.email }, { from: user.role, to: role });
    return { email: user.email, changed: true };
  });
}

export const grantAdmin = (ref: UserRef, actor: Actor) => setRole(ref, 'admin', actor);
export const revokeAdmin = (ref: UserRef, actor: Actor) => setRole(ref, 'user', actor);

/** Every admin of the instance, oldest first. */
export async function listAdmins(): Promise<{ email: string; firstName: string; lastName: string; state: string }[]> {
  const db = await getDb();
  return db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName, state: users.state })
    .from(users)
    .where(eq(users.role, 'admin'))
    .orderBy(asc(users.registrationDate));
}
