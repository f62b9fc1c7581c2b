// The request fields of a room's password as the API takes them (zod): the proof and the salt of
// room-password.ts, which says what they are. The server's and the API's, not the meeting page's.
import { z } from 'zod';
import { PASSWORD_PROOF_LENGTH, PASSWORD_SALT_LENGTH } from './room-password';

export const passwordProofSchema = z
  .string({ error: 'incorrect_password' })
  .regex(new RegExp(`^[A-Za-z0-9_-]{${PASSWORD_PROOF_LENGTH}}$`), 'incorrect_password');
export const passwordSaltSchema = z.string({ error: 'incorrect_data' }).regex(new RegExp(`^[A-Za-z0-9_-]{${PASSWORD_SALT_LENGTH}}$`), 'incorrect_data');

/** Request fields that set a password by its proof (a form) rather than in plain text (an API client). */
export const passwordProofFields = {
  passwordProof: passwordProofSchema.optional(),
  passwordSalt: passwordSaltSchema.optional(),
};

/** A proof needs its salt and the other way round, and one request cannot set two passwords. */
export function checkPasswordProofFields(value: { password?: string | null; passwordProof?: string; passwordSalt?: string }, ctx: z.RefinementCtx) {
  if (!value.passwordProof !== !value.passwordSalt) {
    ctx.addIssue({ code: 'custom', path: [value.passwordProof ? 'passwordSalt' : 'passwordProof'], message: 'missing_data' });
  }
  if (value.passwordProof && value.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'incorrect_data' });
}
