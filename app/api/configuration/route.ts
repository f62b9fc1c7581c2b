import { apiRoute } from '@/lib/api/handler';
import { billingOn } from '@/lib/configuration/billing-mode';
import { getPublicConfiguration } from '@/lib/configuration/configuration';

// GET /api/configuration – product_price, max_event_attendees, enable2fa. With billing off there is
// no price to pay (issue 48, point 4): product_price and its currencies are left out, not answered
// as a price nobody charges.
export const GET = apiRoute({ auth: 'none' }, async () => {
  const { product_price, currency, ...rest } = await getPublicConfiguration();
  return billingOn() ? { product_price, currency, ...rest } : rest;
});
