import { apiRoute } from '@/lib/api/handler';
import { downgrade } from '@/lib/billing/change-rooms';
import { stripeCall } from '@/lib/billing/route-options';
import { roomsSchema } from '@/lib/billing/schemas';

// POST /billing/downgrade {rooms} – fewer rooms from the next billing date
export const POST = apiRoute({ ...stripeCall, body: roomsSchema }, async ({ user, body }) => {
  return downgrade(user, body.rooms);
});
