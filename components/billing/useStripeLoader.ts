'use client';

import { useCallback, useState } from 'react';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripeOnce } from './stripe-loader';

export type StripeState = { kind: 'idle' } | { kind: 'loading' } | { kind: 'ready'; stripe: Stripe } | { kind: 'failed' };

/** Loads Stripe.js on demand; `failed` when js.stripe.com cannot be reached. */
export function useStripeLoader() {
  const [state, setState] = useState<StripeState>({ kind: 'idle' });
  const load = useCallback(async (): Promise<Stripe | null> => {
    setState({ kind: 'loading' });
    try {
      const stripe = await loadStripeOnce();
      setState({ kind: 'ready', stripe });
      return stripe;
    } catch {
      setState({ kind: 'failed' });
      return null;
    }
  }, []);
  return { state, load };
}
