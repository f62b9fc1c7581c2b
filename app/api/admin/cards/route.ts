import { apiRoute } from '@/lib/api/handler';
import { adminActor } from '@/lib/audit/audit-log';
import { cardSchema, issueMeetingCard } from '@/lib/admin/meeting-card';

// POST /api/admin/cards {email, firstName?, lastName?} – a meeting-card account and its one-time login link (admins only)
export const POST = apiRoute({ auth: 'admin', body: cardSchema }, async ({ user, body }) => {
  const card = await issueMeetingCard(body, adminActor(user));
  return { status: 'ok', ...card };
});
