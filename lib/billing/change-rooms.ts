import 'server-only';
import { count, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { rooms as roomsTable, subscriptions, type Subscription, type User } from '@/lib/db/schema';
import { paymentIntentOf } from './checkout';
import { storedSubscription } from './customer';
import { oneAtATime, withIdempotencyKey } from './idempotency';
import { isPaying, MAX_ROOMS, MIN_ROOMS, roomAllowance } from './state';
import { callStripe, stripe } from './stripe';
import { applySubscription, viewOf } from './sync';

async function roomsInUse(userId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(roomsTable).where(eq(roomsTable.ownerId, userId));
  return row?.n ?? 0;
}

async function payingSubscription(user: User): Promise<Subscription & { stripeSubscriptionId: string }> {
  const stored = await storedSubscription(user.id);
  if (!stored?.stripeSubscriptionId || !isPaying(stored.status)) throw new ApiError('incorrect_data');
  return stored as Subscription & { stripeSubscriptionId: string };
}

/** GET /billing/upgrade: what a change of rooms starts from. */
export async function roomsQuote(user: User) {
  const stored = await payingSubscription(user);
  const { rooms } = roomAllowance(stored.rooms, stored, new Date());
  return {
    rooms,
    billedRooms: stored.rooms,
    // A reduction already asked for: what the next billing date brings.
    nextRooms: stored.roomsUntilPeriodEnd ? stored.rooms : null,
    roomsInUse: await roomsInUse(user.id),
    minRooms: MIN_ROOMS,
    maxRooms: MAX_ROOMS,
    unitAmount: stored.unitAmountCents,
    currency: stored.currency,
    nextBillingDate: stored.currentPeriodEnd?.toISOString() ?? null,
  };
}

export type UpgradeStart = { state: 'complete' } | { state: 'requires_action'; clientSecret: string; paymentIntent: string };

async function setQuantity(user: User, stored: Subscription & { stripeSubscriptionId: string }, rooms: number, prorate: boolean): Promise<Stripe.Subscription> {
  const subscription = await callStripe('read subscription', () => stripe().subscriptions.retrieve(stored.stripeSubscriptionId));
  const item = subscription.items.data[0];
  if (!item) throw new ApiError('error_setting_up_payment');
  if (item.quantity === rooms) {
    return callStripe('read subscription', () =>
      stripe().subscriptions.retrieve(stored.stripeSubscriptionId, { expand: ['latest_invoice.confirmation_secret', 'default_payment_method'] }),
    );
  }
  return callStripe('change rooms', () =>
    withIdempotencyKey(user.id, prorate ? 'upgrade' : 'reduce', { subscription: stored.stripeSubscriptionId, from: item.quantity, rooms }, (idempotencyKey) =>
      stripe().subscriptions.update(
        stored.stripeSubscriptionId,
        {
          items: [{ id: item.id, quantity: rooms }],
          // An increase is charged now for the rest of the period and applied once paid; a
          // reduction is not refunded, it bills less from the next billing date.
          proration_behavior: prorate ? 'always_invoice' : 'none',
          ...(prorate && { payment_behavior: 'pending_if_incomplete' as const }),
          expand: ['latest_invoice.confirmation_secret', 'default_payment_method'],
        },
        { idempotencyKey },
      ),
    ),
  );
}

/**
 * POST /billing/upgrade/setup {rooms}: more rooms, charged now pro rata to the saved card. When the
 * bank wants the person to confirm (3-D Secure), the browser gets the payment to confirm and
 * finishes with POST /billing/upgrade/finish.
 */
export function setupUpgrade(user: User, rooms: number): Promise<UpgradeStart> {
  return oneAtATime(user.id, async () => {
    const stored = await payingSubscription(user);
    const kept = stored.roomsUntilPeriodEnd ?? stored.rooms;
    if (rooms <= stored.rooms) throw new ApiError('incorrect_data', { field: 'rooms' });
    // Taking back (part of) a reduction that waits for the next billing date costs nothing: those
    // rooms are paid for until then.
    const paidFor = Math.min(rooms, kept);
    let subscription = await setQuantity(user, stored, paidFor, false);
    if (rooms > kept) subscription = await setQuantity(user, stored, rooms, true);
    if (rooms >= kept) await clearReduction(user.id);
    await applySubscription(viewOf(subscription));

    if (subscription.pending_update) {
      const payment = paymentIntentOf(subscription.latest_invoice);
      if (!payment) throw new ApiError('error_setting_up_payment');
      const intent = await callStripe('read payment', () => stripe().paymentIntents.retrieve(payment.paymentIntent));
      if (intent.status === 'requires_action' || intent.status === 'requires_confirmation') return { state: 'requires_action', ...payment };
      throw new ApiError('payment_failed', { details: { transactionId: intent.id } });
    }
    return { state: 'complete' };
  });
}

/** POST /billing/upgrade/finish {paymentIntent}: after the browser confirmed the upgrade's payment. */
export { confirmPayment as finishUpgrade } from './checkout';

/**
 * POST /billing/downgrade {rooms}: fewer rooms from the next billing date. The account keeps what
 * it paid for until then; it cannot go below the rooms it has set up.
 */
export function downgrade(user: User, rooms: number) {
  return oneAtATime(user.id, async () => {
    const stored = await payingSubscription(user);
    const { rooms: allowance } = roomAllowance(stored.rooms, stored, new Date());
    if (rooms >= allowance) throw new ApiError('incorrect_data', { field: 'rooms' });
    if (rooms < (await roomsInUse(user.id))) throw new ApiError('rooms_in_use', { field: 'rooms' });
    const db = await getDb();
    // Written before Stripe bills less, so that no moment shows the smaller allowance early.
    await db.update(subscriptions).set({ roomsUntilPeriodEnd: allowance }).where(eq(subscriptions.userId, user.id));
    const subscription = await setQuantity(user, stored, rooms, false);
    await applySubscription(viewOf(subscription));
    return { rooms, from: stored.currentPeriodEnd?.toISOString() ?? null };
  });
}

async function clearReduction(userId: string) {
  const db = await getDb();
  await db.update(subscriptions).set({ roomsUntilPeriodEnd: null }).where(eq(subscriptions.userId, userId));
}
