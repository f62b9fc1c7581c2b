import { apiRoute } from '@/lib/api/handler';
import { createFeed, revokeFeed } from '@/lib/events/feed';

// POST /api/calendar/feed – a new private ICS feed URL (revokes the previous one)
export const POST = apiRoute({ auth: 'required' }, ({ user }) => createFeed(user));

// DELETE /api/calendar/feed – revoke the feed URL
export const DELETE = apiRoute({ auth: 'required' }, async ({ user }) => {
  await revokeFeed(user);
  return {};
});
