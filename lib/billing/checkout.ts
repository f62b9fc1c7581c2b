import 'server-only';
import { ApiError } from '@/lib/errors';
import { getPublicConfiguration } from '@/lib/configuration/configuration';
import type { User } from '@/lib/db/schema';
import { ensureCustomer, roomProductId, storedSubscription } from './customer';
import { oneAtATime, withIdempotencyKey } from './idempotency';
import { isPaying } from './state';
import { callStripe, idOf, stripe } from './stripe';
import { applySubscription, syncAccount, viewOf } from './sync';
import type Stripe from 'stripe';
import type { StripeCurrency } from './pricing';

/** What the browser needs to confirm a payment with Stripe Elements. */
export interface PaymentStart {
  clientSecret: string;
  paymentIntent: string;
  subscription: string;
  rooms: number;
  amount: number;
  currency: StripeCurrency;
}

/** The PaymentIntent behind an invoice's confirmation secret ("pi_123_secret_abc" → "pi_123"). */
export function paymentIntentOf(invoice: Stripe.Invoice | string | null): { clientSecret: string; paymentIntent: string } | null {
  const secret = typeof invoice === 'object' ? invoice?.confirmation_secret?.client_secret : null;
  if (!secret) return null;
  return { clientSecret: secret, paymentIntent: secret.split('_secret_')[0]! };
}

/**
 * POST /billing/payment/secret {rooms}: starts a subscription of `rooms` rooms at the configured
 * price, to be paid by the card the browser confirms. A start that was not paid is reused when it
 * asks for the same rooms, and replaced otherwise, so an account never holds two.
 */
export function startSubscription(user: User, rooms: number, preferredCurrency: StripeCurrency): Promise<PaymentStart> {
  return oneAtATime(user.id, async () => {
    const stored = await storedSubscription(user.id);
    if (stored && isPaying(stored.status)) throw new ApiError('incorrect_data', { field: 'rooms' });
    const currency = stored?.currency ?? preferredCurrency;
    const { product_price } = await getPublicConfiguration();
    const unitAmount = Math.round(product_price * 100);

    if (stored?.stripeSubscriptionId && stored.status === 'incomplete') {
      const open = await callStripe('read subscription', () =>
        stripe().subscriptions.retrieve(stored.stripeSubscriptionId!, { expand: ['latest_invoice.confirmation_secret'] }),
      );
      const item = open.items.data[0];
      const payment = paymentIntentOf(open.latest_invoice);
      if (open.status === 'incomplete' && item?.quantity === rooms && item.price.unit_amount === unitAmount && payment) {
        return { ...payment, subscription: open.id, rooms, amount: rooms * unitAmount, currency };
      }
      if (open.status === 'incomplete') await callStripe('cancel subscription', () => stripe().subscriptions.cancel(open.id));
    }

    const customer = await ensureCustomer(user, currency);
    const product = await roomProductId();
    const subscription = await callStripe('create subscription', () =>
      withIdempotencyKey(
        user.id,
        'subscribe',
        { customer: customer.stripeCustomerId, rooms, currency, unitAmount, product, replaces: stored?.stripeSubscriptionId ?? null },
        (idempotencyKey) =>
          stripe().subscriptions.create(
            {
              customer: customer.stripeCustomerId,
              items: [{ quantity: rooms, price_data: { currency, product, unit_amount: unitAmount, recurring: { interval: 'month' } } }],
              payment_behavior: 'default_incomplete',
              payment_settings: { payment_method_types: ['card'], save_default_payment_method: 'on_subscription' },
              metadata: { userId: user.id },
              expand: ['latest_invoice.confirmation_secret'],
            },
            { idempotencyKey },
          ),
      ),
    );
    await applySubscription(viewOf(subscription));
    const payment = paymentIntentOf(subscription.latest_invoice);
    if (!payment) throw new ApiError('error_setting_up_payment');
    return { ...payment, subscription: subscription.id, rooms, amount: rooms * unitAmount, currency };
  });
}

export type PaymentOutcome = 'complete' | 'processing';

/**
 * POST /billing/payment {paymentIntent} after the browser confirmed a card payment, or
 * {setupIntent} after it saved a new card. The intent must belong to this account; our state is
 * then read back from Stripe, as the webhook would.
 */
export async function confirmPayment(user: User, paymentIntentId: string): Promise<PaymentOutcome> {
  const stored = await storedSubscription(user.id);
  if (!stored) throw new ApiError('incorrect_data', { field: 'paymentIntent' });
  const intent = await callStripe('read payment', () => stripe().paymentIntents.retrieve(paymentIntentId)).catch(() => {
    throw new ApiError('incorrect_data', { field: 'paymentIntent' });
  });
  if (idOf(intent.customer) !== stored.stripeCustomerId) throw new ApiError('incorrect_data', { field: 'paymentIntent' });
  return outcomeOf(user, intent);
}

/** Maps a PaymentIntent to what the person sees: done, still processing, or why not. */
export async function outcomeOf(user: User, intent: Stripe.PaymentIntent): Promise<PaymentOutcome> {
  switch (intent.status) {
    case 'succeeded': {
      await syncAccount(user.id);
      const after = await storedSubscription(user.id);
      // Stripe marks the invoice paid right after the charge; until we see it, it is processing.
      return isPaying(after?.status) ? 'complete' : 'processing';
    }
    case 'processing':
      return 'processing';
    case 'requires_action':
    case 'requires_confirmation':
      throw new ApiError('payment_incomplete');
    case 'requires_payment_method':
      // Never confirmed: the card form was not filled in. Declined: SPEC's unknown payment error,
      // with the id support can look up.
      if (!intent.last_payment_error) throw new ApiError('payment_incomplete');
      throw new ApiError('payment_failed', { details: { transactionId: intent.id } });
    default:
      throw new ApiError('payment_failed', { details: { transactionId: intent.id } });
  }
}
