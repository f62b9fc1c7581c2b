// SPEC point 9: a generated meeting password is 16 characters from letters, digits and
// the symbols !@#$%^&*. Drawn from the browser's (or Node's) CSPRNG without modulo bias.

export const GENERATED_PASSWORD_LENGTH = 16;
export const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*';

export function generateMeetingPassword(length = GENERATED_PASSWORD_LENGTH): string {
  const size = PASSWORD_ALPHABET.length;
  // The largest multiple of the alphabet size below 256: bytes above it are redrawn.
  const limit = 256 - (256 % size);
  let password = '';
  while (password.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < limit && password.length < length) password += PASSWORD_ALPHABET[byte % size];
    }
  }
  return password;
}
