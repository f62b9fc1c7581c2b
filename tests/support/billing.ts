import Stripe from 'stripe';
import { POST as webhook } from '@/app/stripe/webhook/route';
import { startStripeStandIn } from './stripe-stand-in.mjs';
import { STRIPE_STAND_IN_PORT, WEBHOOK_SECRET } from './billing-env';
import { call, type Answer } from './api';

export interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> & { id: string } };
}

export interface StandIn {
  url: string;
  close: () => Promise<void>;
  controls: {
    pay: (input: { clientSecret?: string; paymentIntent?: string; card?: string; name?: string }) => { id: string; status: string };
    saveCard: (input: { clientSecret?: string; card?: string; name?: string }) => { id: string; status: string };
    renew: (input: { subscription: string; final?: boolean }) => { status: string };
    setCard: (input: { subscription: string; card: string }) => unknown;
    loseAnswers: (input: { count?: number; path?: string }) => unknown;
  };
  state: { events: StripeEvent[]; requests: { method: string; path: string; idempotencyKey: string | null; params: Record<string, unknown> }[] };
  snapshot: () => { subscriptions: { id: string; status: string; customer: string; items: { data: { quantity: number }[] } }[] };
}

export async function startStandIn(): Promise<StandIn> {
  return (await startStripeStandIn({ port: STRIPE_STAND_IN_PORT })) as unknown as StandIn;
}

const signer = new Stripe('sk_test_signer');

/** Delivers an event to POST /stripe/webhook the way Stripe does: raw JSON, signed. */
export function deliver(event: StripeEvent, options: { secret?: string; timestamp?: number } = {}): Promise<Answer> {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp });
  return call(webhook, { method: 'POST', body: payload, origin: null, headers: { 'stripe-signature': header, 'content-type': 'application/json' } });
}
