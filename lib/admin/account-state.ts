import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { writeAudit, type Actor } from '@/lib/audit/audit-log';
import { lockTarget, type UserRef } from './target';

/**
 * Disables an account: its next login answers login_failed_expired (SPEC point 8, "contact
 * sales"), and every live session ends now (the session version is raised). An admin cannot
 * disable their own account.
 */
export async function disableAccount(ref: UserRef, actor: Actor): Promise<{ email: string; changed: boolean }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const user = await lockTarget(tx, ref);
    if (actor.id === user.id) throw new ApiError('incorrect_data', { field: 'state' });
    if (user.state === 'disabled') return { email: user.email, changed: false };
    await tx
      .update(users)
      .set({ state: 'disabled', sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    await writeAudit(tx, actor, 'disable_account', { userId: user.id, label: user.email }, { from: user.state });
    return { email: user.email, changed: true };
  });
}

/**
 * Enables a disabled or expired account again, and an unverified one. The operator vouches that
 * the account may be used, not that its registrant owns the address: `verifiedAt` stays empty until
 * the address is proven, so the owner's single sign-on still takes the account's unproven
 * credentials (lib/auth/oidc/sign-in.ts, issue 44). The person logs in as before; no session is restored.
 */
export async function enableAccount(ref: UserRef, actor: Actor): Promise<{ email: string; changed: boolean }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const user = await lockTarget(tx, ref);
    if (user.state === 'active') return { email: user.email, changed: false };
    await tx.update(users).set({ state: 'active', updatedAt: new Date() }).where(eq(users.id, user.id));
    await writeAudit(tx, actor, 'enable_account', { userId: user.id, label: user.email }, { from: user.state });
    return { email: user.email, changed: true };
  });
}
