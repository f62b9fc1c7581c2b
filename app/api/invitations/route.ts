import { z } from 'zod';
import { apiRoute } from '@/lib/api/handler';
import { emailField } from '@/lib/email-field';
import { sendInvitation } from '@/lib/registration/invitations';

const invitationSchema = z.object({ email: emailField({ required: 'email_required', invalid: 'invite_incorrect_email_format' }) });

// POST /api/invitations – mail a registration invitation link (issue 35): admins, and users when the admin allows it
export const POST = apiRoute({ auth: 'required', body: invitationSchema }, async ({ user, body }) => {
  await sendInvitation({ user }, body.email);
  return { status: 'ok' };
});
