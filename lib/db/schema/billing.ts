// Billing: history, subscriptions and what Stripe has already been asked and told.
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './accounts';

/** Billing history per account (SPEC point 3, "Account and billing"): one row per charge. Money in cents. */
export const billingRecords = pgTable(
  'billing_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    rooms: integer('rooms').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency', { enum: ['eur', 'usd'] })
      .notNull()
      .default('eur'),
    nextBillingDate: timestamp('next_billing_date', { withTimezone: true }),
    cardName: text('card_name'),
    transactionId: text('transaction_id'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
  },
  // A charge (Stripe invoice) is recorded once, however often its webhook arrives.
  (t) => [uniqueIndex('billing_records_transaction_key').on(t.transactionId)],
);

/**
 * An account's Stripe subscription as Stripe last described it (issue 15), plus the allowance we
 * keep: a reduction of rooms applies from the next billing date, so until then `roomsUntilPeriodEnd`
 * holds what was paid for.
 */
export const subscriptions = pgTable('subscriptions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  stripeSubscriptionId: text('stripe_subscription_id').unique(),
  // Stripe's own status word (incomplete, active, past_due, unpaid, canceled…).
  status: text('status'),
  rooms: integer('rooms').notNull().default(0),
  currency: text('currency', { enum: ['eur', 'usd'] })
    .notNull()
    .default('eur'),
  unitAmountCents: integer('unit_amount_cents').notNull().default(0),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  roomsUntilPeriodEnd: integer('rooms_until_period_end'),
  cardName: text('card_name'),
  cardLast4: text('card_last4'),
  lastTransactionId: text('last_transaction_id'),
  lastChargeCents: integer('last_charge_cents'),
  syncedAt: timestamp('synced_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Stripe webhook events already applied: each event id changes our state at most once. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every mutating call to Stripe, written before its first attempt: a retry after a crash or a
 * lost answer reuses the same idempotency key, so Stripe does the work once.
 */
export const stripeRequests = pgTable(
  'stripe_requests',
  {
    idempotencyKey: text('idempotency_key').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    operation: text('operation').notNull(),
    // The operation's parameters, so that only the same request reuses the key.
    fingerprint: text('fingerprint').notNull(),
    resultId: text('result_id'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('stripe_requests_lookup_idx').on(t.userId, t.operation, t.fingerprint)],
);

export type Subscription = typeof subscriptions.$inferSelect;
