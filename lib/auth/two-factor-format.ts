// How the 2FA set-up shows its secrets (issue 33, point 7). No dependencies: the account modal's
// chunk imports it.

/** The TOTP secret (base32) in groups of four, for reading and typing: "ABCD EFGH IJKL". */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').toUpperCase().replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The recovery code grouped with a dash, "123-456", so that it does not look like the app's
 * six-digit code. Stored and checked as six digits; the server accepts either way of writing it.
 */
export function formatRecoveryCode(code: string): string {
  const digits = code.replace(/\D/g, '');
  return digits.length === 6 ? `${digits.slice(0, 3)}-${digits.slice(3)}` : code;
}
