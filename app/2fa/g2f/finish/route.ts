import { apiRoute } from '@/lib/api/handler';
import { twoFactorCodeSchema } from '@/lib/auth/schemas';
import { finishSetup } from '@/lib/auth/totp';

// POST /2fa/g2f/finish – step 3: 2FA is on; answers the recovery code (shown once), then logout
export const POST = apiRoute({ auth: 'required', body: twoFactorCodeSchema }, async ({ body, user }) => {
  const recoveryCode = await finishSetup(user, body.code);
  return { status: 'ok', recoveryCode: [recoveryCode] };
});
