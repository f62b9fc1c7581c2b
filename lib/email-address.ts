// The e-mail rule of every form and schema (SPEC point 5 "E-mail"): trimmed, at most 254
// characters, zod 4's pattern (that of z.email()). Plain, so that a page checks an address without
// bringing zod; the schemas' field is email-field.ts, built on the same pattern.
export const EMAIL_MAX = 254;
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** True when the schemas' e-mail field (email-field.ts) takes `value`. */
export function isEmailAddress(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length <= EMAIL_MAX && EMAIL_PATTERN.test(trimmed);
}
