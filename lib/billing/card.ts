import 'server-only';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { stripeRequests } from '@/lib/db/schema';
import type { User } from '@/lib/db/schema';
import { storedSubscription } from './customer';
import { oneAtATime, withIdempotencyKey } from './idempotency';
import { isPaying } from './state';
import { callStripe, idOf, stripe } from './stripe';
import { syncAccount } from './sync';

/** A SetupIntent the browser can still confirm: no card given yet, or one given and not confirmed. */
const OPEN_SETUP_STATES: ReadonlySet<string> = new Set(['requires_payment_method', 'requires_confirmation']);
const SETUP_OPERATION = 'card-setup';

/** The SetupIntent this account was last given (stripe_requests keeps what each creation made). */
async function lastSetupIntentId(userId: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: stripeRequests.resultId })
    .from(stripeRequests)
    .where(and(eq(stripeRequests.userId, userId), eq(stripeRequests.operation, SETUP_OPERATION), isNotNull(stripeRequests.completedAt)))
    .orderBy(desc(stripeRequests.completedAt))
    .limit(1);
  return row?.id ?? null;
}

/**
 * GET /billing/upgrade/secret: a SetupIntent for saving a new card (the old one expired or is
 * declined). Safe to repeat (issue 32, item 5): while the last one given is still open at Stripe,
 * it is answered again instead of a new one being created on every call.
 */
export async function cardSetupSecret(user: User): Promise<{ clientSecret: string; setupIntent: string }> {
  const stored = await storedSubscription(user.id);
  if (!stored || !isPaying(stored.status)) throw new ApiError('incorrect_data');
  const customer = stored.stripeCustomerId;
  return oneAtATime(user.id, async () => {
    const previous = await lastSetupIntentId(user.id);
    if (previous) {
      // Unreadable (Stripe lost it, or a blip): a new one is made below.
      const open = await stripe()
        .setupIntents.retrieve(previous)
        .catch(() => null);
      if (open && OPEN_SETUP_STATES.has(open.status) && idOf(open.customer) === customer && open.client_secret) {
        return { clientSecret: open.client_secret, setupIntent: open.id };
      }
    }
    const intent = await callStripe('create setup intent', () =>
      withIdempotencyKey(user.id, SETUP_OPERATION, { customer, replaces: previous }, (idempotencyKey) =>
        stripe().setupIntents.create({ customer, usage: 'off_session', metadata: { userId: user.id } }, { idempotencyKey }),
      ),
    );
    if (!intent.client_secret) throw new ApiError('error_setting_up_payment');
    return { clientSecret: intent.client_secret, setupIntent: intent.id };
  });
}

/** POST /billing/payment {setupIntent}: the card the browser just saved pays from now on. */
export async function useSavedCard(user: User, setupIntentId: string): Promise<void> {
  const stored = await storedSubscription(user.id);
  if (!stored?.stripeSubscriptionId) throw new ApiError('incorrect_data', { field: 'setupIntent' });
  const intent = await callStripe('read setup intent', () => stripe().setupIntents.retrieve(setupIntentId)).catch(() => {
    throw new ApiError('incorrect_data', { field: 'setupIntent' });
  });
  if (idOf(intent.customer) !== stored.stripeCustomerId) throw new ApiError('incorrect_data', { field: 'setupIntent' });
  if (intent.status !== 'succeeded') throw new ApiError('payment_incomplete');
  const paymentMethod = idOf(intent.payment_method);
  if (!paymentMethod) throw new ApiError('payment_incomplete');
  await callStripe('use saved card', () =>
    withIdempotencyKey(user.id, 'default-card', { setupIntentId }, (idempotencyKey) =>
      stripe().subscriptions.update(stored.stripeSubscriptionId!, { default_payment_method: paymentMethod }, { idempotencyKey }),
    ),
  );
  await syncAccount(user.id);
}
