import { apiRoute } from '@/lib/api/handler';
import { recoveryCodesSchema } from '@/lib/auth/schemas';
import { recoveryStatus, renewRecoveryCodes } from '@/lib/auth/recovery-renewal';

// Issue 48, point 6 (not in SPEC's catalogue; docs/specification.md): the recovery codes.

// GET /2fa/g2f/recovery – how many unused recovery codes the account has left
export const GET = apiRoute({ auth: 'required' }, async ({ user }) => {
  const { has2FA, left } = await recoveryStatus(user);
  return { status: 'ok', has2FA, recoveryCodesLeft: left };
});

// POST /2fa/g2f/recovery {password} or {code} – new codes in place of the old ones, answered as
// POST /2fa/g2f/finish answers them (recoveryCode, a list), shown once
export const POST = apiRoute({ auth: 'required', body: recoveryCodesSchema }, async ({ body, user }) => {
  const recoveryCode = await renewRecoveryCodes(user, body);
  return { status: 'ok', recoveryCode };
});
