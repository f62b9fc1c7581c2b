'use client';

import type { Stripe } from '@stripe/stripe-js';
import { apiGet } from '@/lib/api/browser';

// Stripe.js must come from js.stripe.com (card data never touches this server). It loads only
// when a card form is shown, and a failure (offline, blocked) is reported, not hidden.
const LOAD_TIMEOUT_MS = 20_000;

let loading: Promise<Stripe> | null = null;

export function loadStripeOnce(): Promise<Stripe> {
  loading ??= load().catch((error: unknown) => {
    loading = null; // the next attempt tries again
    throw error;
  });
  return loading;
}

async function load(): Promise<Stripe> {
  const answer = await apiGet<{ key: string }>('/stripe/key');
  if (Array.isArray(answer) || !answer.key) throw new Error('billing_not_configured');
  // The pure entry point: nothing is fetched from Stripe until this runs.
  const { loadStripe } = await import('@stripe/stripe-js/pure');
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('stripe_timeout')), LOAD_TIMEOUT_MS));
  const stripe = await Promise.race([loadStripe(answer.key), timeout]);
  if (!stripe) throw new Error('stripe_unavailable');
  return stripe;
}
