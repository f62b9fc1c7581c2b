import 'server-only';
import { hashPassword } from '@/lib/auth/password';
import type { Room } from '@/lib/db/schema';
import { sealNewRoomPassword } from '@/lib/meeting/room-password';

export type RoomPasswordColumns = Pick<Room, 'passwordHash' | 'passwordSalt'>;

/** How a request may set a room's password (lib/meeting/room-password.ts). */
export interface PasswordFields {
  /** A plain password, from API clients: stretched here once and forgotten. null removes it. */
  password?: string | null;
  /** From Enclave's own forms: the browser stretched the password; only its proof comes here. */
  passwordProof?: string;
  passwordSalt?: string;
}

export const NO_PASSWORD: RoomPasswordColumns = { passwordHash: null, passwordSalt: null };

/**
 * The room's new verifier, NO_PASSWORD to remove it, or undefined to keep the current one ("" or
 * nothing sent). Either way only argon2id(proof) and the public salt are stored.
 */
export async function roomPasswordColumns(fields: PasswordFields): Promise<RoomPasswordColumns | undefined> {
  if (fields.passwordProof && fields.passwordSalt) {
    return { passwordHash: await hashPassword(fields.passwordProof), passwordSalt: fields.passwordSalt };
  }
  if (fields.password) {
    const sealed = await sealNewRoomPassword(fields.password);
    return { passwordHash: await hashPassword(sealed.passwordProof), passwordSalt: sealed.passwordSalt };
  }
  if (fields.password === null) return NO_PASSWORD;
  return undefined;
}
