import { apiRoute } from '@/lib/api/handler';
import { setupUpgrade } from '@/lib/billing/change-rooms';
import { stripeCall } from '@/lib/billing/route-options';
import { roomsSchema } from '@/lib/billing/schemas';

// POST /billing/upgrade/setup {rooms} – more rooms, charged now pro rata
export const POST = apiRoute({ ...stripeCall, body: roomsSchema }, async ({ user, body }) => {
  return setupUpgrade(user, body.rooms);
});
