import 'server-only';
import { ApiError } from '@/lib/api/errors';
import type { User } from '@/lib/db/schema';
import { storedSubscription } from './customer';
import { withIdempotencyKey } from './idempotency';
import { isPaying } from './state';
import { callStripe, idOf, stripe } from './stripe';
import { syncAccount } from './sync';

/** GET /billing/upgrade/secret: a SetupIntent for saving a new card (the old one expired or is declined). */
export async function cardSetupSecret(user: User): Promise<{ clientSecret: string; setupIntent: string }> {
  const stored = await storedSubscription(user.id);
  if (!stored || !isPaying(stored.status)) throw new ApiError('incorrect_data');
  const intent = await callStripe('create setup intent', () =>
    stripe().setupIntents.create({ customer: stored.stripeCustomerId, usage: 'off_session', metadata: { userId: user.id } }),
  );
  if (!intent.client_secret) throw new ApiError('error_setting_up_payment');
  return { clientSecret: intent.client_secret, setupIntent: intent.id };
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
