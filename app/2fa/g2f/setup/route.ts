import { apiRoute } from '@/lib/api/handler';
import { beginSetup } from '@/lib/auth/totp';

// GET /2fa/g2f/setup – step 1 of enabling 2FA: the QR code (PNG) for an authenticator app
export const GET = apiRoute({ auth: 'required' }, async ({ user }) => {
  const { png } = await beginSetup(user);
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
});
