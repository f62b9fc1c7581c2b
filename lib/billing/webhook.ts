import 'server-only';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { ApiError } from '@/lib/errors';
import { config } from '@/lib/environment';
import { getDb } from '@/lib/db/client';
import { stripeEvents } from '@/lib/db/schema';
import { log } from '@/lib/log';
import { billingConfigured, idOf, stripe } from './stripe';
import { applySubscription, readSubscription } from './sync';

/** Stripe's own default: a signature older than 5 minutes is a replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Stripe's library refuses only a signature older than the tolerance; one dated in the future (a
 * signing clock or an attacker holding the secret stamping events ahead of time) is refused here
 * by the same tolerance (issue 32, item 10). `t` is the signed timestamp of the header.
 */
export function isTimely(signatureHeader: string, nowMs: number): boolean {
  const stamps = signatureHeader
    .split(',')
    .map((part) => /^\s*t=(\d+)\s*$/.exec(part)?.[1])
    .filter((value): value is string => value !== undefined);
  if (stamps.length !== 1) return false;
  return Math.abs(nowMs / 1000 - Number(stamps[0])) <= SIGNATURE_TOLERANCE_SECONDS;
}

/** The subscription an event is about, if it is about one. */
export function subscriptionOf(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; id?: string };
  switch (object.object) {
    case 'subscription':
      return object.id ?? null;
    case 'invoice':
      return idOf((object as Stripe.Invoice).parent?.subscription_details?.subscription ?? null);
    case 'checkout.session':
      return idOf((object as Stripe.Checkout.Session).subscription);
    default:
      return null;
  }
}

/**
 * POST /stripe/webhook: verifies the signature on the raw body, then applies the subscription as
 * Stripe holds it now (not as the event describes it, which may be older than an event already
 * applied). Each event id changes our state at most once.
 */
export async function receiveWebhook(rawBody: string, signature: string | null): Promise<{ received: true; applied: boolean }> {
  if (!billingConfigured() || !config.stripe.webhookSecret) throw new ApiError('billing_not_configured');
  let event: Stripe.Event;
  try {
    event = stripe().webhooks.constructEvent(rawBody, signature ?? '', config.stripe.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
  } catch {
    throw new ApiError('incorrect_data', { status: 400 });
  }
  if (!isTimely(signature ?? '', Date.now())) throw new ApiError('incorrect_data', { status: 400 });
  const db = await getDb();
  const [seen] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1);
  if (seen) return { received: true, applied: false };

  const subscriptionId = subscriptionOf(event);
  if (!subscriptionId) {
    await db.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
    return { received: true, applied: false };
  }
  // Stripe unreachable: answer 503 so that Stripe sends the event again later.
  const view = await readSubscription(subscriptionId).catch((error: unknown) => {
    log.warn('webhook could not read the subscription back', { event: event.id });
    throw error instanceof ApiError ? new ApiError(error.code, { status: 503 }) : error;
  });
  const { applied } = await applySubscription(view, { id: event.id, type: event.type });
  return { received: true, applied };
}
