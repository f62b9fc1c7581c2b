// The e-mail field of the schemas (SPEC point 5): one rule (email-address.ts), trimmed and
// lower-cased; each form names its own codes of SPEC point 8.
import { z } from 'zod';
import { EMAIL_MAX, EMAIL_PATTERN } from './email-address';

/** `invalid` for a malformed address; `required`, if given, for an empty or absent one. */
export function emailField(codes: { invalid: string; required?: string }) {
  const text = z.string({ error: codes.required ?? codes.invalid }).trim();
  return (codes.required ? text.min(1, codes.required) : text)
    .max(EMAIL_MAX, codes.invalid)
    .regex(EMAIL_PATTERN, codes.invalid)
    .transform((email) => email.toLowerCase());
}
