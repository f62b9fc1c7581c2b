// SPEC point 5, passwords. Pure, so the forms and the handlers use the very same rules.

export const MIN_PASSWORD_LENGTH = 8;
/** Longer passwords gain nothing against argon2 cost limits and could tire the server. */
export const MAX_PASSWORD_LENGTH = 256;

function classes(password: string) {
  return {
    lower: /[a-z]/.test(password),
    upper: /[A-Z]/.test(password),
    digit: /\d/.test(password),
    symbol: /[^A-Za-z0-9]/.test(password),
  };
}

/** At least 8 characters and three of four classes (upper, lower, digit, non-alphabetic). */
export function passwordProblem(password: string): 'password_length_error' | 'low_complexity' | null {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    return 'password_length_error';
  }
  const count = Object.values(classes(password)).filter(Boolean).length;
  return count >= 3 ? null : 'low_complexity';
}

/**
 * The strength bar (0–5): one point each for lowercase, uppercase, digit, symbol and a length
 * over 16; a password shorter than 8 scores at most 1.
 */
export function passwordStrength(password: string): number {
  if (!password) return 0;
  const c = classes(password);
  const score = [c.lower, c.upper, c.digit, c.symbol, password.length > 16].filter(Boolean).length;
  return password.length < MIN_PASSWORD_LENGTH ? Math.min(score, 1) : score;
}
