// The error catalogue of SPEC point 8 and the HTTP status each code answers with (docs/design.md).
// It sits at the bottom of lib/ (issue 37): the database, the rate limiter and every domain throw
// ApiError, and only lib/api/ turns one into an HTTP answer.
import { isShared, markShared } from './shared-class';

export const errorCodes = [
  'incorrect_email',
  'incorrect_password',
  'login_failed',
  'login_failed_expired',
  'login_failed_not_verified',
  'email_sent',
  'too_many_attempts',
  'email_exists',
  'email_exists_on_sm',
  'format_email',
  'incorrect_email_format',
  'invite_incorrect_email_format',
  'email_required',
  'password_not_matching',
  'passwords_dont_match',
  'password_length_error',
  'password_not_long_enough',
  'low_complexity',
  'invalid_reset_link',
  'error_on_create',
  'error_contact_us',
  'fill_old_password',
  'invalid_old_password',
  'enter_first_name',
  'min_first_name',
  'enter_last_name',
  'min_last_name',
  'invalid_firstname',
  'invalid_lastname',
  'agree',
  'invite_not_found',
  'event_creation_error',
  'error_is_past_event',
  'event_not_found',
  'missing_data',
  'incorrect_data',
  'room_max_limit',
  'room_title_length',
  'room_password_length',
  'room_already_exists',
  'cant_remove_room',
  'room_not_found',
  'attendee_not_found',
  'contact_exists',
  'group_name_required',
  'group_name_exists',
  'notification_added',
  'notification_not_added',
  'error_setting_up_payment',
  // Beyond SPEC point 8, billing (issue 15): SPEC's "incomplete payment information" and "unknown
  // payment error" messages, a server without Stripe keys, a trial that ended without a plan, and
  // a reduction below the rooms the account has.
  'payment_incomplete',
  'payment_failed',
  'billing_not_configured',
  'trial_ended',
  'rooms_in_use',
  'authentication_error',
  'success',
  // Beyond SPEC point 8: the participant limit of point 9 (docs/decisions.md, "Meetings").
  'meeting_full',
  // Issue 18: a support ticket or an account (admin area) that does not exist or is not yours.
  'ticket_not_found',
  'user_not_found',
  // Issue 20: the database cannot be reached for a moment (503, with Retry-After).
  'service_unavailable',
  // Issue 35: who may register (lib/registration). A used, expired or other-address invitation is
  // registration_invitation_required too; invitation_not_allowed: users may not send invitations.
  'registration_closed',
  'registration_domain_not_allowed',
  'registration_invitation_required',
  'invitation_not_allowed',
  // Issue 35, item 3: a sign-in through an OpenID provider that failed (wrong state, a used code, a
  // token for another client, the provider unreachable…), and one whose e-mail the provider did not
  // verify, which may neither link to an account nor create one (lib/auth/oidc).
  'sso_failed',
  'sso_email_not_verified',
  // Issue 35: a server without SALES_EMAIL has no contact-sales form; its call says so (404).
  'contact_not_configured',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}

const conflicts: ReadonlySet<ErrorCode> = new Set([
  'email_exists',
  'email_exists_on_sm',
  'room_already_exists',
  'contact_exists',
  'group_name_exists',
  'meeting_full',
]);

export function statusFor(code: ErrorCode): number {
  if (code === 'authentication_error') return 401;
  if (code === 'too_many_attempts') return 429;
  if (code === 'service_unavailable') return 503;
  if (code.startsWith('registration_') || code === 'invitation_not_allowed') return 403;
  if (code.endsWith('_not_found') || code === 'contact_not_configured') return 404;
  if (conflicts.has(code)) return 409;
  return 400;
}

/** A failure the user can act on: answered with its code, a localized message and a 4xx status. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    options: { status?: number; field?: string; retryAfterSeconds?: number; details?: Record<string, string> } = {},
  ) {
    super(code);
    this.name = 'ApiError';
    this.status = options.status ?? statusFor(code);
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
    markShared(this, 'ApiError');
  }

  /** Recognises one thrown by another copy of this module (lib/shared-class.ts). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return isShared(value, 'ApiError');
  }
  readonly field: string | undefined;
  /** More for the person to act on, answered beside the code (e.g. payment_failed's transactionId). */
  readonly details: Record<string, string> | undefined;
  /** For too_many_attempts and service_unavailable: when to try again (the Retry-After header). */
  readonly retryAfterSeconds: number | undefined;
}
