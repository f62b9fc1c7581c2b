import { apiRoute } from '@/lib/api/handler';
import { readBodyText } from '@/lib/api/body';
import { receiveWebhook } from '@/lib/billing/webhook';

// POST /stripe/webhook – Stripe's events, verified by their signature on the raw body
export const POST = apiRoute({ auth: 'none', signedByCaller: true }, async ({ request }) => {
  const rawBody = await readBodyText(request, 512 * 1024);
  return receiveWebhook(rawBody, request.headers.get('stripe-signature'));
});
