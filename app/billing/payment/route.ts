import { apiRoute } from '@/lib/api/handler';
import { useSavedCard } from '@/lib/billing/card';
import { confirmPayment } from '@/lib/billing/checkout';
import { billingCall, stripeCall } from '@/lib/billing/route-options';
import { paymentSchema } from '@/lib/billing/schemas';
import { billingOf } from '@/lib/billing/summary';

// GET /billing/payment – the account's billing: plan, monthly payment, rooms, next billing date, card, last charge
export const GET = apiRoute(billingCall, ({ user }) => billingOf(user));

// POST /billing/payment – {paymentIntent} after the browser paid, or {setupIntent} after it saved a new card
export const POST = apiRoute({ ...stripeCall, body: paymentSchema }, async ({ user, body }) => {
  if ('setupIntent' in body) {
    await useSavedCard(user, body.setupIntent);
    return { state: 'complete', billing: await billingOf(user) };
  }
  const state = await confirmPayment(user, body.paymentIntent);
  return { state, billing: await billingOf(user) };
});
