import { apiRoute } from '@/lib/api/handler';
import { cardSetupSecret } from '@/lib/billing/card';
import { stripeCall } from '@/lib/billing/route-options';

// GET /billing/upgrade/secret – a SetupIntent for saving a new card
export const GET = apiRoute(stripeCall, async ({ user }) => {
  return cardSetupSecret(user);
});
