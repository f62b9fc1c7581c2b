import { apiRoute } from '@/lib/api/handler';
import { setupUpgrade } from '@/lib/billing/change-rooms';
import { billingCall, countBillingCall } from '@/lib/billing/route-options';
import { roomsSchema } from '@/lib/billing/schemas';

// POST /billing/upgrade/setup {rooms} – more rooms, charged now pro rata
export const POST = apiRoute({ ...billingCall, body: roomsSchema }, async ({ user, body }) => {
  await countBillingCall(user);
  return setupUpgrade(user, body.rooms);
});
