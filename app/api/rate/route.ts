import { apiRoute } from '@/lib/api/handler';
import { rateSchema, saveRating } from '@/lib/ratings/rate';
import { clientIp } from '@/lib/security/rate-limit';

// POST /api/rate – rate the product: {rating: 1–5, comment?}; guests too
export const POST = apiRoute({ auth: 'optional', body: rateSchema, maxBodyBytes: 8 * 1024 }, async ({ body, user, request }) => {
  await saveRating(body, user?.id ?? null, clientIp(request.headers));
  return { status: 'ok' };
});
