import { apiRoute } from '@/lib/api/handler';
import { finishUpgrade } from '@/lib/billing/change-rooms';
import { stripeCall } from '@/lib/billing/route-options';
import { finishSchema } from '@/lib/billing/schemas';
import { billingOf } from '@/lib/billing/summary';

// POST /billing/upgrade/finish {paymentIntent} – after the browser confirmed the upgrade's payment
export const POST = apiRoute({ ...stripeCall, body: finishSchema }, async ({ user, body }) => {
  const state = await finishUpgrade(user, body.paymentIntent);
  return { state, billing: await billingOf(user) };
});
