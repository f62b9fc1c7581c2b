// SPEC point 9: a generated meeting password is 16 characters from letters, digits and
// the symbols !@#$%^&*. Drawn from the browser's (or Node's) CSPRNG without modulo bias.
//
// People read it aloud and type it from a screen or a mail, so the alphabet leaves out the
// characters that look alike in common fonts (issue 33): I, J, O, l, o, 0 and 1. That leaves 63
// characters: 16 of them carry 95.6 bits (the full 70 gave 98.1), far beyond what a guess at
// the door could reach, and the length stays the spec's 16.

export const GENERATED_PASSWORD_LENGTH = 16;
/** What a generated password is made of: never I, J, O, l, o, 0 or 1, each of which looks like another. */
export const PASSWORD_ALPHABET = 'ABCDEFGHKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789!@#$%^&*';

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
