import { apiRoute } from '@/lib/api/handler';
import { listGroups } from '@/lib/groups/list';
import { createGroup } from '@/lib/groups/save';
import { groupSchema } from '@/lib/groups/schemas';

// GET /api/groups – the user's groups, each with its contacts' ids
export const GET = apiRoute({ auth: 'required' }, ({ user }) => listGroups(user.id));

// POST /api/groups – add a group (name, color, attendees: a JSON string of contact ids or e-mails)
export const POST = apiRoute({ auth: 'required', body: groupSchema }, async ({ user, body }) => ({
  group: await createGroup(user, body),
}));
