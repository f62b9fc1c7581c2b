import { z } from 'zod';
import { apiRoute } from '@/lib/api/handler';
import { disableAccount, enableAccount } from '@/lib/admin/account-state';
import { adminActor } from '@/lib/audit/audit-log';

const stateSchema = z.object({ state: z.enum(['active', 'disabled'], { error: 'incorrect_data' }) });

// POST /api/admin/users/{id}/state {state: active|disabled} – enable or disable an account (admins only)
export const POST = apiRoute<RouteContext<'/api/admin/users/[id]/state'>, 'admin', typeof stateSchema>(
  { auth: 'admin', body: stateSchema },
  async ({ user, params, body }) => {
    const change = body.state === 'disabled' ? disableAccount : enableAccount;
    await change({ id: params.id }, adminActor(user));
    return { status: 'ok', state: body.state };
  },
);
