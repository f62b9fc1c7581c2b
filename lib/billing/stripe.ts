import 'server-only';
import Stripe from 'stripe';
import { ApiError } from '@/lib/errors';
import { config } from '@/lib/environment';
import { describeError, log } from '@/lib/log';
import { billingOn } from '@/lib/configuration/billing-mode';

/**
 * Billing needs both keys, and billing on (lib/configuration/billing-mode.ts: BILLING=off or ON_PREMISE=true
 * turn it off even with keys); otherwise every billing call says so and nothing pretends to charge.
 */
export function billingConfigured(): boolean {
  return billingOn() && Boolean(config.stripe.secretKey && config.stripe.publishableKey);
}

let client: Stripe | undefined;

/** The Stripe client, or billing_not_configured. STRIPE_API_URL points it elsewhere (tests' stand-in). */
export function stripe(): Stripe {
  if (!billingConfigured()) throw new ApiError('billing_not_configured');
  if (client) return client;
  const endpoint = config.stripe.apiUrl ? new URL(config.stripe.apiUrl) : null;
  client = new Stripe(config.stripe.secretKey!, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Enclave' },
    ...(endpoint && {
      host: endpoint.hostname,
      port: endpoint.port || (endpoint.protocol === 'https:' ? 443 : 80),
      protocol: endpoint.protocol === 'https:' ? 'https' : 'http',
    }),
  });
  return client;
}

/**
 * Runs a call to Stripe; a failure the person cannot fix is logged and answered with SPEC's
 * error_setting_up_payment (never Stripe's own message, which may name internals).
 */
export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    log.error('stripe call failed', { what, ...describeError(error) });
    throw new ApiError('error_setting_up_payment');
  }
}

/** The id of an expandable Stripe field, whether Stripe sent the id or the object. */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}
