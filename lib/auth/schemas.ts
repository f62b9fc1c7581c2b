// The zod schemas of the account forms and their handlers (SPEC point 5). Each rule names the
// error code of SPEC point 8 it answers with, so the form and the server say the same thing.
import { z } from 'zod';
import { emailField } from '@/lib/email-field';
import { locales } from '@/lib/i18n/locales';
import { NAME_MAX, NAME_PATTERN } from './form-rules';
import { looksLikeRecoveryCode, normalizeRecoveryCode } from './two-factor-format';
import { MAX_PASSWORD_LENGTH, passwordProblem } from './password-rules';

export const accountEmailField = emailField({ required: 'email_required', invalid: 'format_email' });

const nameField = (required: 'enter_first_name' | 'enter_last_name', min: string, invalid: string) =>
  z.string({ error: required }).trim().min(1, required).min(2, min).max(NAME_MAX, invalid).regex(NAME_PATTERN, invalid);

export const firstNameField = nameField('enter_first_name', 'min_first_name', 'invalid_firstname');
export const lastNameField = nameField('enter_last_name', 'min_last_name', 'invalid_lastname');

export const newPasswordField = z
  .string({ error: 'password_length_error' })
  .max(MAX_PASSWORD_LENGTH, 'password_length_error')
  .superRefine((password, ctx) => {
    const problem = passwordProblem(password);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const registerSchema = z
  .object({
    firstName: firstNameField,
    lastName: lastNameField,
    email: accountEmailField,
    password: newPasswordField,
    passwordConfirm: z.string({ error: 'passwords_dont_match' }),
    agree: z.literal(true, { error: 'agree' }),
    lang: z.enum(locales).optional(),
    timezone: z.string().max(64).optional(),
    // Issue 35: the token of a registration invitation link; its checks are the server's.
    invitation: z.string({ error: 'registration_invitation_required' }).max(200, 'registration_invitation_required').optional(),
  })
  .refine((body) => body.password === body.passwordConfirm, {
    message: 'passwords_dont_match',
    path: ['passwordConfirm'],
  });

export const loginSchema = z.object({
  email: accountEmailField,
  password: z.string({ error: 'incorrect_password' }).min(1, 'incorrect_password').max(MAX_PASSWORD_LENGTH, 'login_failed'),
});

export const forgotPasswordSchema = z.object({ email: accountEmailField });

export const resetPasswordSchema = z
  .object({
    link: z.string({ error: 'invalid_reset_link' }).min(16, 'invalid_reset_link').max(128, 'invalid_reset_link'),
    password: newPasswordField,
    passwordConfirm: z.string().optional(),
  })
  .refine((body) => body.passwordConfirm === undefined || body.password === body.passwordConfirm, {
    message: 'passwords_dont_match',
    path: ['passwordConfirm'],
  });

/**
 * Six digits (SPEC point 5), or a recovery code: twelve characters, shown grouped
 * (abcd-efgh-jkmn, issue 48 point 6), or six digits shown as 123-456 for a code made before.
 * Dashes and spaces are dropped; a recovery code is compared case-insensitively.
 */
const twoFactorCodeField = z
  .string({ error: 'incorrect_data' })
  .trim()
  .max(32, 'incorrect_data')
  .refine(looksLikeRecoveryCode, 'incorrect_data')
  .transform(normalizeRecoveryCode);

/** POST /2fa/g2f/cancel: the factor (a code or the recovery code) and the password. */
export const twoFactorCancelSchema = z.object({
  code: twoFactorCodeField,
  password: z.string({ error: 'incorrect_data' }).max(MAX_PASSWORD_LENGTH, 'invalid_old_password').optional(),
});

export const twoFactorCodeSchema = z.object({ code: twoFactorCodeField });

/** The six digits of the authenticator app, and only those: turning 2FA on. */
export const twoFactorSetupCodeSchema = z.object({
  code: z
    .string({ error: 'incorrect_data' })
    .trim()
    .regex(/^\d{6}$/, 'incorrect_data'),
});

/**
 * POST /2fa/g2f/recovery: new recovery codes, for the password or a current code of the app
 * (issue 48, point 6); a recovery code does not make new ones.
 */
export const recoveryCodesSchema = z
  .object({
    password: z.string({ error: 'incorrect_data' }).max(MAX_PASSWORD_LENGTH, 'invalid_old_password').optional(),
    code: z
      .string({ error: 'incorrect_data' })
      .trim()
      .regex(/^\d{6}$/, 'incorrect_data')
      .optional(),
  })
  .refine((body) => Boolean(body.password || body.code), { message: 'fill_old_password', path: ['password'] });
