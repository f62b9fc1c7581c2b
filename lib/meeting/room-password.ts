// A room's password as docs/e2ee-crypto.md "Secrets" uses it: the browser stretches it (PBKDF2-SHA-256,
// 600,000 iterations, salted with the room's random password salt) and splits the result into a
// key that joins the call's key tree and a proof that opens the server's gate. The server keeps
// only an argon2id hash of the proof and the salt, which is public: it learns neither the
// password nor the key. Shared by the browser and the server (for API clients that still send a
// plain password), so no DOM or server-only code here; and no zod, so the pages that set a
// password (rooms, schedule) do not load it for this (the request schemas: room-password.schema.ts).
import { base64urlEncode, randomBytes, type Bytes } from './e2ee/bytes';
import { passwordSecrets, stretchPassword } from './e2ee/keys';

/** 16 random bytes, base64url: 22 characters. */
export const PASSWORD_SALT_LENGTH = 22;
/** A proof is 32 bytes, base64url: 43 characters. */
export const PASSWORD_PROOF_LENGTH = 43;

export function newPasswordSalt(): string {
  return base64urlEncode(randomBytes(16));
}

/**
 * stretchRoomPassword(password, salt): the stretched password, all a browser keeps to rejoin
 * without typing it. roomPasswordSecrets(stretched): { passwordKey, proof } — the key mixed into
 * R, which never leaves the browser, and the proof the server checks.
 */
export { stretchPassword as stretchRoomPassword, passwordSecrets as roomPasswordSecrets };

/** What a form sends instead of the password when it sets one: a fresh salt and its proof. */
export async function sealNewRoomPassword(password: string): Promise<{ passwordSalt: string; passwordProof: string; stretched: Bytes }> {
  const passwordSalt = newPasswordSalt();
  const stretched = await stretchPassword(password, passwordSalt);
  const { proof } = await passwordSecrets(stretched);
  return { passwordSalt, passwordProof: proof, stretched };
}
