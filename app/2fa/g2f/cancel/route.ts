import { apiRoute } from '@/lib/api/handler';
import { cancelTwoFactor } from '@/lib/auth/totp';

// POST /2fa/g2f/cancel – turn 2FA off; other sessions end, this one continues
export const POST = apiRoute({ auth: 'required' }, async ({ user, setSession }) => {
  const version = await cancelTwoFactor(user);
  setSession({ userId: user.id, version, role: user.role });
  return { status: 'ok' };
});
