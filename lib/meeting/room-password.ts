// A room's password as E2EE.md "Secrets" uses it: the browser stretches it (PBKDF2-SHA-256,
// 600,000 iterations, salted with the room's random password salt) and splits the result into a
// key that joins the call's key tree and a proof that opens the server's gate. The server keeps
// only an argon2id hash of the proof and the salt, which is public: it learns neither the
// password nor the key. Shared by the browser and the server (for API clients that still send a
// plain password), so no DOM or server-only code here.
import { z } from 'zod';

/** 16 random bytes, base64url: 22 characters. */
export const PASSWORD_SALT_LENGTH = 22;
/** A proof is 32 bytes, base64url: 43 characters. */
export const PASSWORD_PROOF_LENGTH = 43;

export const passwordProofSchema = z
  .string({ error: 'incorrect_password' })
  .regex(new RegExp(`^[A-Za-z0-9_-]{${PASSWORD_PROOF_LENGTH}}$`), 'incorrect_password');
export const passwordSaltSchema = z
  .string({ error: 'incorrect_data' })
  .regex(new RegExp(`^[A-Za-z0-9_-]{${PASSWORD_SALT_LENGTH}}$`), 'incorrect_data');

/** Request fields that set a password by its proof (a form) rather than in plain text (an API client). */
export const passwordProofFields = {
  passwordProof: passwordProofSchema.optional(),
  passwordSalt: passwordSaltSchema.optional(),
};

/** A proof needs its salt and the other way round, and one request cannot set two passwords. */
export function checkPasswordProofFields(
  value: { password?: string | null; passwordProof?: string; passwordSalt?: string },
  ctx: z.RefinementCtx,
) {
  if (!value.passwordProof !== !value.passwordSalt) {
    ctx.addIssue({ code: 'custom', path: [value.passwordProof ? 'passwordSalt' : 'passwordProof'], message: 'missing_data' });
  }
  if (value.passwordProof && value.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'incorrect_data' });
}

// The browser's side (salt, stretching, proof), apart so that it loads without zod.
export { newPasswordSalt, roomPasswordSecrets, sealNewRoomPassword, stretchRoomPassword } from './room-password-seal';
