import { z } from 'zod';
import { apiRoute } from '@/lib/api/handler';
import { claimFirstAdmin } from '@/lib/admin/first-admin';
import { sessionFor } from '@/lib/auth/session-cookie';

const claimBody = z.object({
  token: z.string({ error: 'missing_data' }).min(1, 'missing_data').max(100, 'incorrect_data'),
});

// POST /api/first-admin {token} – issue 48, point 5: the logged-in person who opened the setup
// link from the server log becomes the server's first admin (docs/self-hosting.md, "The first admin")
export const POST = apiRoute({ auth: 'required', body: claimBody }, async ({ body, user, setSession }) => {
  const admin = await claimFirstAdmin(user, body.token);
  setSession(sessionFor(admin));
  return { status: 'ok' };
});
