// The room owner's browser: sending a new room password as a proof, and remembering it.
//
// The password is part of the call's key (docs/e2ee-crypto.md "Secrets"), so the owner needs it too. A room's
// owner who set the password in this browser, or typed it once in the lobby, keeps its stretched
// form in localStorage under the room's meeting id and salt, and walks into their own meeting
// without typing it, as before. A new password (new salt) makes the old entry useless. Guests'
// browsers never keep it.
import { base64urlDecode, base64urlEncode, type Bytes } from '@/lib/meeting/e2ee/bytes';
import { sealNewRoomPassword } from '@/lib/meeting/room-password';

const PREFIX = 'enclave.roomPassword.';

interface Stored {
  salt: string;
  stretched: string;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the owner types the password in the lobby
  }
}

export function rememberRoomPassword(meetingId: string, salt: string, stretched: Bytes): void {
  const entry: Stored = { salt, stretched: base64urlEncode(stretched) };
  storage()?.setItem(PREFIX + meetingId, JSON.stringify(entry));
}

/** The stretched password kept for this room and salt, or null. */
export function recallRoomPassword(meetingId: string, salt: string): Bytes | null {
  try {
    const entry = JSON.parse(storage()?.getItem(PREFIX + meetingId) ?? 'null') as Stored | null;
    if (!entry || entry.salt !== salt) return null;
    const stretched = base64urlDecode(entry.stretched);
    return stretched && stretched.length === 32 ? stretched : null;
  } catch {
    return null;
  }
}

export function forgetRoomPassword(meetingId: string): void {
  storage()?.removeItem(PREFIX + meetingId);
}

export interface PasswordChange {
  /** What the request carries: a proof and salt, `password: null` to remove, or nothing to keep. */
  fields: { passwordProof?: string; passwordSalt?: string; password?: null };
  /** After the server took the change: remember (or forget) it for the room's meeting id. */
  settle(meetingId: string): void;
}

/**
 * A form's password field as a request: a new password (a non-empty string) goes as a proof, null
 * removes the password, '' or undefined keeps the current one. The password itself never leaves.
 */
export async function passwordChange(password: string | null | undefined): Promise<PasswordChange> {
  if (password === null) return { fields: { password: null }, settle: forgetRoomPassword };
  if (!password) return { fields: {}, settle: () => {} };
  const sealed = await sealNewRoomPassword(password);
  return {
    fields: { passwordProof: sealed.passwordProof, passwordSalt: sealed.passwordSalt },
    settle: (meetingId) => rememberRoomPassword(meetingId, sealed.passwordSalt, sealed.stretched),
  };
}
