import { apiRoute } from '@/lib/api/handler';
import { clientIp } from '@/lib/security/rate-limit';
import { contactSales, contactSalesSchema } from '@/lib/users/contact-sales';

// POST /contact – the contact-sales form: name, e-mail, message
export const POST = apiRoute({ auth: 'optional', body: contactSalesSchema }, async ({ body, user, request }) => {
  await contactSales(body, user?.id ?? null, clientIp(request.headers));
  return { status: 'ok' };
});
