// The mail outbox.
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/** Mail waits here until the SMTP server has taken it, so a failing server loses nothing. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    attachments: jsonb('attachments').$type<{ filename: string; content: string; contentType: string }[]>().notNull().default([]),
    // Suppresses duplicates, e.g. one reminder per (occurrence, recipient, kind).
    idempotencyKey: text('idempotency_key'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    sendAfter: timestamp('send_after', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('mail_outbox_idempotency_key').on(t.idempotencyKey), index('mail_outbox_due_idx').on(t.status, t.sendAfter)],
);
