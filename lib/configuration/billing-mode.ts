import { config } from '@/lib/environment';

// Issue 35: which of the two modes this server runs. With billing on, SPEC's hosted service
// (trial, plans, Stripe) applies unchanged; with billing off (a private server, the default of a
// fresh install) there is no trial and the limits come from the admin's configuration. One rule,
// read from the environment only, so every part of the app agrees and nothing changes by surprise.

export type BillingModeName = 'stripe' | 'off';

export interface BillingMode {
  mode: BillingModeName;
  /** Why, in the words the start-up log prints. */
  reason: string;
  /** A setting that contradicts itself: the server refuses to start (lib/startup-checks.ts). */
  problem?: string;
}

export interface BillingSettings {
  /** BILLING: 'stripe', 'off', or unset (then the Stripe keys decide). */
  billing?: string;
  /** ON_PREMISE=true: the older, explicit name of billing off. */
  onPremise: boolean;
  stripe: { secretKey?: string; publishableKey?: string };
}

const OFF_NOTE = 'a private server: no trial, limits from the admin\u2019s configuration';

export function billingMode(settings: BillingSettings = config): BillingMode {
  const choice = settings.billing?.trim().toLowerCase();
  const { secretKey, publishableKey } = settings.stripe;
  const missingKeys = [!secretKey && 'STRIPE_SECRET_KEY', !publishableKey && 'STRIPE_PUBLISHABLE_KEY'].filter(Boolean).join(' and ');

  if (choice !== undefined && choice !== '' && choice !== 'stripe' && choice !== 'off') {
    return {
      mode: 'off',
      reason: `BILLING=${settings.billing}`,
      problem: `Enclave will not start: BILLING=${settings.billing} is not a mode. Write BILLING=stripe (the hosted service, with Stripe) or BILLING=off (a private server).`,
    };
  }
  if (choice === 'stripe') {
    if (settings.onPremise) {
      return {
        mode: 'stripe',
        reason: 'BILLING=stripe',
        problem: 'Enclave will not start: BILLING=stripe and ON_PREMISE=true contradict each other. Remove one of them (ON_PREMISE=true means BILLING=off).',
      };
    }
    if (missingKeys) {
      return {
        mode: 'stripe',
        reason: 'BILLING=stripe',
        problem: `Enclave will not start: BILLING=stripe needs ${missingKeys} (and STRIPE_WEBHOOK_SECRET) from your Stripe dashboard. Set them, or use BILLING=off for a server without billing.`,
      };
    }
    return { mode: 'stripe', reason: 'BILLING=stripe' };
  }
  if (choice === 'off') return { mode: 'off', reason: `BILLING=off (${OFF_NOTE})` };
  if (settings.onPremise) return { mode: 'off', reason: `ON_PREMISE=true (${OFF_NOTE})` };
  if (!missingKeys) return { mode: 'stripe', reason: 'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set' };
  if (secretKey || publishableKey) {
    // One key alone is a half-done setup: neither mode would be what the operator meant.
    return {
      mode: 'off',
      reason: `only one Stripe key`,
      problem: `Enclave will not start: ${missingKeys} is missing while the other Stripe key is set. Set both (billing on) or neither (billing off), or choose with BILLING=stripe or BILLING=off.`,
    };
  }
  return { mode: 'off', reason: `no STRIPE_SECRET_KEY (${OFF_NOTE})` };
}

/** Billing on: SPEC's trial, plans and Stripe. */
export function billingOn(): boolean {
  return billingMode().mode === 'stripe';
}

/** The one line the start-up log says about it. */
export function billingModeNote(mode: BillingMode = billingMode()): string {
  return mode.mode === 'stripe'
    ? `Billing on: ${mode.reason} (the hosted service: 14-day trial, plans and payment through Stripe)`
    : `Billing off: ${mode.reason}`;
}
