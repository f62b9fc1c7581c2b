import { z } from 'zod';
import { apiRoute } from '@/lib/api/handler';
import { adminActor } from '@/lib/audit/audit-log';
import { setRole } from '@/lib/admin/roles';

const roleSchema = z.object({ role: z.enum(['user', 'admin'], { error: 'incorrect_data' }) });

// POST /api/admin/users/{id}/role {role} – make an account admin or a plain user (admins only)
export const POST = apiRoute<RouteContext<'/api/admin/users/[id]/role'>, 'admin', typeof roleSchema>(
  { auth: 'admin', body: roleSchema },
  async ({ user, params, body }) => {
    await setRole({ id: params.id }, body.role, adminActor(user));
    return { status: 'ok', role: body.role };
  },
);
