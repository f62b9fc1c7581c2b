import { apiRoute } from '@/lib/api/handler';
import { updateGroup } from '@/lib/groups/save';
import { groupUpdateSchema } from '@/lib/groups/schemas';

// POST /api/groups/update – change a group (id plus name, color, attendees)
export const POST = apiRoute({ auth: 'required', body: groupUpdateSchema }, async ({ user, body }) => ({
  group: await updateGroup(user, body),
}));
