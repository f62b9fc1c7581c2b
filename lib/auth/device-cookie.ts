import 'server-only';
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { getSessionSecret } from '@/lib/environment';

/**
 * Device cookies (issue 32, item 4; OWASP "Slow Down Online Guessing Attacks with Device
 * Cookies"): after a complete login the browser gets a token that binds it to that account. A
 * login attempt that carries a valid token for the account it names is limited per device only,
 * so guessing spread over many addresses cannot lock the person out of their own browser.
 *
 * One cookie holds the tokens of up to MAX_TOKENS accounts (a shared computer), newest first,
 * joined by `~`. A token is `<nonce>.<issued>.<mac>`: 128 random bits in hex (the key of the
 * device's own rate limit), the issue time in base-36 Unix seconds, and HMAC-SHA-256 (first 128
 * bits) over `v1|userId|nonce|issued` under a key derived from the session secret. Neither the
 * e-mail nor the user id is in the cookie: a token says whose it is only to a server that checks
 * it against the account a login names. It is not a credential — the password is still needed —
 * so logging out leaves it in place: that is what makes the browser "one used before".
 */
export const DEVICE_COOKIE = 'enclave_device';
/** A device stays known for a year after its last complete login (the token is renewed then). */
export const DEVICE_TTL_SECONDS = 365 * 24 * 60 * 60;
/** Accounts remembered per browser; the least recently logged-in one goes first. */
export const MAX_TOKENS = 5;

const TOKEN = /^([0-9a-f]{32})\.([0-9a-z]{1,10})\.([\w-]{22})$/;

let key: Buffer | undefined;
function deviceKey(): Buffer {
  key ??= Buffer.from(hkdfSync('sha256', getSessionSecret(), Buffer.alloc(0), 'enclave device cookie v1', 32));
  return key;
}

function mac(userId: string, nonce: string, issued: string): Buffer {
  return createHmac('sha256', deviceKey()).update(`v1|${userId}|${nonce}|${issued}`).digest().subarray(0, 16);
}

/** The well-formed tokens of a cookie value, at most MAX_TOKENS; anything else is dropped. */
function tokensOf(cookieValue: string | undefined): string[] {
  if (!cookieValue || cookieValue.length > 1024) return [];
  return cookieValue
    .split('~')
    .filter((token) => TOKEN.test(token))
    .slice(0, MAX_TOKENS);
}

/** Issued less than DEVICE_TTL_SECONDS ago (and not in the future beyond a minute of clock skew). */
function isFresh(token: string, now: number): boolean {
  const issuedAt = parseInt(TOKEN.exec(token)![2]!, 36) * 1000;
  return issuedAt <= now + 60_000 && now - issuedAt < DEVICE_TTL_SECONDS * 1000;
}

function isValidFor(token: string, userId: string, now: number): boolean {
  if (!isFresh(token, now)) return false;
  const [, nonce, issued, given] = TOKEN.exec(token)!;
  return timingSafeEqual(Buffer.from(given!, 'base64url'), mac(userId, nonce!, issued!));
}

/** Whether a cookie value holds any token at all (else no account need be looked up for it). */
export function hasDeviceTokens(cookieValue: string | undefined): boolean {
  return tokensOf(cookieValue).length > 0;
}

/**
 * The device's id (its nonce) when the cookie holds a valid, unexpired token for this account;
 * null for a forged token, another account's, an expired one, or none.
 */
export function deviceIdFor(cookieValue: string | undefined, userId: string, now = Date.now()): string | null {
  const token = tokensOf(cookieValue).find((candidate) => isValidFor(candidate, userId, now));
  return token ? token.slice(0, 32) : null;
}

/**
 * The cookie value after a complete login: a fresh token for this account first, then the other
 * tokens the browser held (this account's older ones dropped), at most MAX_TOKENS in all.
 */
export function renewDeviceCookie(cookieValue: string | undefined, userId: string, now = Date.now()): string {
  const nonce = randomBytes(16).toString('hex');
  const issued = Math.floor(now / 1000).toString(36);
  const fresh = `${nonce}.${issued}.${mac(userId, nonce, issued).toString('base64url')}`;
  const others = tokensOf(cookieValue).filter((token) => isFresh(token, now) && !isValidFor(token, userId, now));
  return [fresh, ...others].slice(0, MAX_TOKENS).join('~');
}

export function deviceCookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', maxAge: DEVICE_TTL_SECONDS };
}
