// How the 2FA set-up shows its secrets (issue 33, point 7). No dependencies: the account modal's
// chunk imports it.

/** The TOTP secret (base32) in groups of four, for reading and typing: "ABCD EFGH IJKL". */
export function groupSecret(secret: string): string {
  return secret
    .replace(/\s+/g, '')
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, '$1 ');
}

/** Recovery codes (issue 48, point 6): 12 characters of Crockford's base32, 60 random bits. */
export const RECOVERY_CODE_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const RECOVERY_CODE_LENGTH = 12;

/**
 * A recovery code as typed: case, spaces and dashes do not count, and the letters that look like
 * digits (o, i, l) are read as those digits, as Crockford's base32 does.
 */
export function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
}

/** Could this be a recovery code (new or, six digits, from before issue 48)? */
export function looksLikeRecoveryCode(input: string): boolean {
  const code = normalizeRecoveryCode(input);
  return /^\d{6}$/.test(code) || (code.length === RECOVERY_CODE_LENGTH && [...code].every((c) => RECOVERY_CODE_ALPHABET.includes(c)));
}

/**
 * A recovery code grouped for reading, "abcd-efgh-jkmn", so that it does not look like the app's
 * six-digit code; one from before issue 48, six digits, as "123-456". Checked without the dashes.
 */
export function formatRecoveryCode(code: string): string {
  const plain = normalizeRecoveryCode(code);
  if (/^\d{6}$/.test(plain)) return `${plain.slice(0, 3)}-${plain.slice(3)}`;
  return plain.length === RECOVERY_CODE_LENGTH ? plain.replace(/(.{4})(?=.)/g, '$1-') : code;
}
