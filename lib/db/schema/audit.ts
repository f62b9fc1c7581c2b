// The audit log of the admin area and the operator's CLI.
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './accounts';

/**
 * Every change made in the admin area or by the operator CLI (issue 18): who, what, when. The
 * actor's label is kept as text, so an entry still says who acted after that account is gone.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    // An admin's e-mail, or "operator (CLI)".
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    // What the action was about, readable: an e-mail, a ticket subject, "configuration".
    target: text('target'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);

export type AuditEntry = typeof auditLog.$inferSelect;
