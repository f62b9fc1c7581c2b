import { apiRoute } from '@/lib/api/handler';
import { cardSetupSecret } from '@/lib/billing/card';
import { billingCall, countBillingCall } from '@/lib/billing/route-options';

// GET /billing/upgrade/secret – a SetupIntent for saving a new card
export const GET = apiRoute(billingCall, async ({ user }) => {
  await countBillingCall(user);
  return cardSetupSecret(user);
});
