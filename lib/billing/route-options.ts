import 'server-only';
import { ApiError } from '@/lib/errors';
import { limits } from '@/lib/security/rate-limit';
import { billingConfigured } from './stripe';

/** Every billing call: login required, and a clear billing_not_configured without Stripe keys. */
export const billingCall = {
  auth: 'required' as const,
  available: () => {
    if (!billingConfigured()) throw new ApiError('billing_not_configured');
  },
};

/** A billing call that reaches Stripe on the person's behalf: rate limited per account. */
export const stripeCall = { ...billingCall, limit: limits.billing };
