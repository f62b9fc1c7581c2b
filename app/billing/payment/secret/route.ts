import { apiRoute } from '@/lib/api/handler';
import { startSubscription } from '@/lib/billing/checkout';
import { stripeCurrencyFor } from '@/lib/billing/room-price';
import { stripeCall } from '@/lib/billing/route-options';
import { roomsSchema } from '@/lib/billing/schemas';

// POST /billing/payment/secret {rooms} – starts a subscription; answers the payment for Elements to confirm
export const POST = apiRoute({ ...stripeCall, body: roomsSchema }, async ({ user, body, request }) => {
  return startSubscription(user, body.rooms, stripeCurrencyFor(request.headers, user.preferredRegion));
});
