import { apiRoute } from '@/lib/api/handler';
import { twoFactorSetupCodeSchema } from '@/lib/auth/schemas';
import { finishSetup } from '@/lib/auth/totp';

// POST /2fa/g2f/finish – step 3: 2FA is on; answers the recovery codes as a list (SPEC point 7;
// issue 48 point 6: several, each good once, shown once), then logout
export const POST = apiRoute({ auth: 'required', body: twoFactorSetupCodeSchema }, async ({ body, user }) => {
  const recoveryCode = await finishSetup(user, body.code);
  return { status: 'ok', recoveryCode };
});
