import { apiRoute } from '@/lib/api/handler';
import { beginSetup } from '@/lib/auth/totp';

// GET /2fa/g2f/setup – step 1 of enabling 2FA: the QR code (PNG) for an authenticator app.
// With ?format=json (the account modal): the same QR code as a data: URL and the secret itself,
// for "Can't scan it? Enter this key" (issue 33, point 7). Each call starts a fresh secret.
export const GET = apiRoute({ auth: 'required' }, async ({ user, request }) => {
  const { png, secret } = await beginSetup(user);
  if (request.nextUrl.searchParams.get('format') === 'json') {
    return Response.json({ status: 'ok', qr: `data:image/png;base64,${png.toString('base64')}`, secret }, { headers: { 'cache-control': 'no-store' } });
  }
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png', 'cache-control': 'no-store' } });
});
