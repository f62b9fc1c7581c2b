import { apiRoute } from '@/lib/api/handler';
import { billingCall } from '@/lib/billing/route-options';
import { config } from '@/lib/environment';

// GET /stripe/key – Stripe's publishable key, for Elements in the browser
export const GET = apiRoute(billingCall, () => ({ key: config.stripe.publishableKey }));
