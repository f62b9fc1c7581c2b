import { apiRoute } from '@/lib/api/handler';
import { adminActor } from '@/lib/audit/audit-log';
import { planSchema, setPlan } from '@/lib/admin/plans';

// POST /api/admin/users/{id}/plan {accountType, numberOfRooms?} – a plan outside Stripe (admins only)
export const POST = apiRoute<RouteContext<'/api/admin/users/[id]/plan'>, 'admin', typeof planSchema>(
  { auth: 'admin', body: planSchema },
  async ({ user, params, body }) => {
    const plan = await setPlan({ id: params.id }, body.accountType, body.numberOfRooms, adminActor(user));
    return { status: 'ok', accountType: plan.accountType, numberOfRooms: plan.numberOfRooms };
  },
);
