import { apiRoute } from '@/lib/api/handler';
import { roomsQuote } from '@/lib/billing/change-rooms';
import { billingCall } from '@/lib/billing/route-options';

// GET /billing/upgrade – what a change of rooms starts from: rooms, price, limits, next billing date
export const GET = apiRoute(billingCall, ({ user }) => roomsQuote(user));
