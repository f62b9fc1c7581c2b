import 'server-only';
import { ApiError } from '@/lib/errors';
import type { User } from '@/lib/db/schema';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { billingConfigured } from './stripe';

/** Every billing call: login required, and a clear billing_not_configured without Stripe keys. */
export const billingCall = {
  auth: 'required' as const,
  available: () => {
    if (!billingConfigured()) throw new ApiError('billing_not_configured');
  },
};

/** Calls that reach Stripe on the person's behalf are rate limited per account. */
export const countBillingCall = (user: User) => consumeAttempt(limits.billing, user.id);
