// The account forms' rules without zod (issue 33, page weight): the same checks as the schemas
// of schemas.ts, each answering the same error code of SPEC point 8, so that /login, /register,
// /forgotPassword, /resetpassword and /verify-account check in the browser without shipping zod
// (30 KB gz) and react-hook-form. The server stays authoritative: it runs the schemas again.
// tests/unit/form-rules.test.ts holds each rule equal to its schema.
import { EMAIL_MAX, EMAIL_PATTERN } from '@/lib/email-address';
import { MAX_PASSWORD_LENGTH, passwordProblem } from './password-rules';

/** Names: at least 2 characters; letters, marks, spaces, apostrophes, dots and hyphens only. */
export const NAME_PATTERN = /^[\p{L}\p{M}][\p{L}\p{M}' .-]*$/u;
export const NAME_MAX = 64;

export type Problems = Record<string, string>;

/** The account e-mail: `email_required` when empty, `format_email` when malformed. */
export function emailProblem(value: string): string | null {
  const email = value.trim();
  if (!email) return 'email_required';
  return email.length <= EMAIL_MAX && EMAIL_PATTERN.test(email) ? null : 'format_email';
}

function nameProblem(value: string, codes: [required: string, min: string, invalid: string]): string | null {
  const name = value.trim();
  if (!name) return codes[0];
  if (name.length < 2) return codes[1];
  return name.length > NAME_MAX || !NAME_PATTERN.test(name) ? codes[2] : null;
}

export const firstNameProblem = (value: string) => nameProblem(value, ['enter_first_name', 'min_first_name', 'invalid_firstname']);
export const lastNameProblem = (value: string) => nameProblem(value, ['enter_last_name', 'min_last_name', 'invalid_lastname']);

/** A new password (SPEC point 5) and its confirmation. */
function newPasswordProblems(password: string, confirm: string | undefined): Problems {
  const problems: Problems = {};
  const problem = passwordProblem(password);
  if (problem) problems.password = problem;
  if (confirm !== undefined && confirm !== password) problems.passwordConfirm = 'passwords_dont_match';
  return problems;
}

const only = (entries: [string, string | null][]): Problems => Object.fromEntries(entries.filter((entry): entry is [string, string] => entry[1] !== null));

export function loginProblems(values: { email: string; password: string }): Problems {
  return only([
    ['email', emailProblem(values.email)],
    ['password', !values.password ? 'incorrect_password' : values.password.length > MAX_PASSWORD_LENGTH ? 'login_failed' : null],
  ]);
}

export function emailOnlyProblems(values: { email: string }): Problems {
  return only([['email', emailProblem(values.email)]]);
}

export function registerProblems(values: {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  passwordConfirm: string;
  agree: boolean;
}): Problems {
  return {
    ...only([
      ['firstName', firstNameProblem(values.firstName)],
      ['lastName', lastNameProblem(values.lastName)],
      ['email', emailProblem(values.email)],
    ]),
    ...newPasswordProblems(values.password, values.passwordConfirm),
    ...(values.agree ? {} : { agree: 'agree' }),
  };
}

export function resetPasswordProblems(values: { password: string; passwordConfirm: string }): Problems {
  return newPasswordProblems(values.password, values.passwordConfirm);
}
