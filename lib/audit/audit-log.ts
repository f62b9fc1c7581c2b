import 'server-only';
import { desc } from 'drizzle-orm';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { auditLog, type User } from '@/lib/db/schema';

/** Who did something in the admin area: an admin (their id and e-mail) or the operator's CLI. */
export interface Actor {
  id: string | null;
  label: string;
}

export const OPERATOR: Actor = { id: null, label: 'operator (CLI)' };

export const adminActor = (user: Pick<User, 'id' | 'email'>): Actor => ({ id: user.id, label: user.email });

export type AuditAction =
  | 'grant_admin'
  | 'revoke_admin'
  | 'set_plan'
  | 'disable_account'
  | 'enable_account'
  | 'issue_card'
  | 'update_configuration'
  | 'ticket_reply'
  | 'ticket_status'
  | 'send_invitation';

/** Writes one entry in the caller's transaction, so it is kept exactly when the change is. */
export async function writeAudit(
  db: Database | Transaction,
  actor: Actor,
  action: AuditAction,
  target: { userId?: string | null; label?: string | null },
  details: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.id,
    actor: actor.label,
    action,
    targetUserId: target.userId ?? null,
    target: target.label ?? null,
    details,
  });
}

export interface AuditView {
  id: string;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

/** The newest entries first, for the admin area's audit tab. */
export async function listAudit(limit = 200): Promise<AuditView[]> {
  const db = await getDb();
  const rows = await db.select().from(auditLog).orderBy(desc(auditLog.createdAt)).limit(limit);
  return rows.map((row) => ({
    id: row.id,
    actor: row.actor,
    action: row.action,
    target: row.target,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  }));
}
