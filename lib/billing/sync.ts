import 'server-only';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { getDb, type Transaction } from '@/lib/db/client';
import { lockOwner } from '@/lib/db/owner-lock';
import { billingRecords, stripeEvents, subscriptions, users } from '@/lib/db/schema';
import { log } from '@/lib/log';
import { accountAfter, isPaying, sameFields, subscriptionAfter, type SubscriptionView } from './state';
import { callStripe, idOf, stripe } from './stripe';

/** Stripe's subscription, read fresh: whatever order events come in, we apply the object as it is now. */
export async function readSubscription(subscriptionId: string): Promise<SubscriptionView> {
  const subscription = await callStripe('read subscription', () =>
    stripe().subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method', 'latest_invoice'] }),
  );
  return viewOf(subscription);
}

export function viewOf(subscription: Stripe.Subscription): SubscriptionView {
  const item = subscription.items.data[0];
  const method = typeof subscription.default_payment_method === 'object' ? subscription.default_payment_method : null;
  const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer)!,
    status: subscription.status,
    quantity: item?.quantity ?? 0,
    unitAmountCents: item?.price.unit_amount ?? 0,
    currency: item?.price.currency === 'usd' ? 'usd' : 'eur',
    periodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
    cardName: method?.billing_details?.name ?? null,
    cardLast4: method?.card?.last4 ?? null,
    latestInvoice: invoice?.id ? { id: invoice.id, status: invoice.status, amountPaidCents: invoice.amount_paid } : null,
  };
}

export interface ApplyResult {
  /** False when the event was applied before, or the subscription is not (or no longer) ours. */
  applied: boolean;
  /** Whether any of our rows changed. */
  changed: boolean;
}

/**
 * Writes Stripe's view of a subscription into the account, in one transaction with the event id
 * that brought it (if any): an event is applied once, and a replay changes nothing.
 */
export async function applySubscription(view: SubscriptionView, event?: { id: string; type: string }, now = new Date()): Promise<ApplyResult> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (event) {
      const fresh = await tx.insert(stripeEvents).values(event).onConflictDoNothing().returning({ id: stripeEvents.id });
      if (!fresh.length) return { applied: false, changed: false };
    }
    const [stored] = await tx.select().from(subscriptions).where(eq(subscriptions.stripeCustomerId, view.customerId)).for('update');
    if (!stored || !isCurrent(stored, view)) return { applied: false, changed: false };

    const user = await lockOwner(tx, stored.userId);
    const account = {
      isTrial: user.isTrial,
      state: user.state,
      numberOfRooms: user.numberOfRooms,
      accountType: user.accountType,
      sessionVersion: user.sessionVersion,
    };
    const nextAccount = accountAfter(account, view, stored, now);
    const nextSubscription = subscriptionAfter(view, stored, now);
    let changed = false;
    if (!sameFields(account, nextAccount)) {
      await tx
        .update(users)
        .set({ ...nextAccount, updatedAt: now })
        .where(eq(users.id, user.id));
      changed = true;
    }
    if (!sameFields(stored, nextSubscription)) {
      await tx
        .update(subscriptions)
        .set({ ...nextSubscription, syncedAt: now })
        .where(eq(subscriptions.userId, user.id));
      changed = true;
    }
    if (await recordCharge(tx, user.id, nextAccount.accountType, view, stored.cardName)) changed = true;
    if (changed) log.info('billing state changed', { userId: user.id, status: view.status, rooms: nextAccount.numberOfRooms });
    return { applied: true, changed };
  });
}

/**
 * Our row follows one subscription at a time. Another one is adopted only while ours has none
 * that can still be paid — the first answer lost in a crash, or a new start after an abandoned
 * one — so that a late event of an abandoned subscription cannot overwrite the live one.
 */
function isCurrent(stored: typeof subscriptions.$inferSelect, view: SubscriptionView): boolean {
  if (stored.stripeSubscriptionId === view.id) return true;
  const ours = stored.status;
  const oursIsOver = !stored.stripeSubscriptionId || ours === 'incomplete_expired' || ours === 'canceled';
  return oursIsOver && (isPaying(view.status) || view.status === 'incomplete');
}

/** One billing_records row per paid invoice, however often it is reported. */
async function recordCharge(tx: Transaction, userId: string, plan: string, view: SubscriptionView, cardName: string | null) {
  const invoice = view.latestInvoice;
  if (!invoice || invoice.status !== 'paid') return false;
  const inserted = await tx
    .insert(billingRecords)
    .values({
      userId,
      plan,
      rooms: view.quantity,
      amountCents: invoice.amountPaidCents,
      currency: view.currency,
      nextBillingDate: view.periodEnd,
      cardName: view.cardName ?? cardName,
      transactionId: invoice.id,
      stripeCustomerId: view.customerId,
      stripeSubscriptionId: view.id,
      status: 'paid',
    })
    .onConflictDoNothing()
    .returning({ id: billingRecords.id });
  return inserted.length > 0;
}

/** Re-reads the account's subscription from Stripe and applies it (after a payment, or by the reconcile job). */
export async function syncAccount(userId: string): Promise<ApplyResult> {
  const db = await getDb();
  const [stored] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  if (!stored?.stripeSubscriptionId) return { applied: false, changed: false };
  return applySubscription(await readSubscription(stored.stripeSubscriptionId));
}
