import { apiRoute } from '@/lib/api/handler';
import { adminActor } from '@/lib/audit/audit-log';
import { configurationSchema, getAdminConfiguration, updateConfiguration } from '@/lib/admin/configuration';

// GET /api/admin/configuration – product_price, max_event_attendees, enable2fa, brand name, downloads (admins only)
export const GET = apiRoute({ auth: 'admin' }, () => getAdminConfiguration());

// POST /api/admin/configuration – change any of them; every change is written to the audit log (admins only)
export const POST = apiRoute({ auth: 'admin', body: configurationSchema }, async ({ user, body }) => {
  const configuration = await updateConfiguration(body, adminActor(user));
  return { status: 'ok', configuration };
});
