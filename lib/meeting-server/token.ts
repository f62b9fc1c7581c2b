import 'server-only';
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { getSessionSecret } from '@/lib/environment';

/**
 * The join token: what POST /join hands a participant, and what authorises their event
 * stream and messages. HMAC-SHA-256 under a key derived from the session secret, so every app
 * instance sharing SESSION_SECRET accepts it. It travels in an Authorization header only.
 */
export interface JoinClaims {
  meetingId: string;
  participantId: string;
  name: string;
  isHost: boolean;
  /** Unix seconds. */
  exp: number;
}

export const TOKEN_LIFETIME_SECONDS = 12 * 3600;

let key: Buffer | undefined;
function tokenKey(): Buffer {
  key ??= Buffer.from(hkdfSync('sha256', getSessionSecret(), Buffer.alloc(0), 'enclave meeting join token', 32));
  return key;
}

export function newParticipantId(): string {
  return randomBytes(16).toString('base64url');
}

export function signJoinToken(claims: Omit<JoinClaims, 'exp'>, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(now / 1000) + TOKEN_LIFETIME_SECONDS })).toString('base64url');
  const mac = createHmac('sha256', tokenKey()).update(payload).digest('base64url');
  return `${payload}.${mac}`;
}

/** The claims of a valid, unexpired token for this meeting; null for anything else. */
export function verifyJoinToken(token: string | null | undefined, meetingId: string, now = Date.now()): JoinClaims | null {
  if (!token || token.length > 2048) return null;
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) return null;
  const expected = createHmac('sha256', tokenKey()).update(payload).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as JoinClaims;
    if (claims.meetingId !== meetingId || typeof claims.participantId !== 'string') return null;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null;
    return claims;
  } catch {
    return null;
  }
}

/** The token from `Authorization: Bearer …`. */
export function bearerToken(headers: Headers): string | null {
  const value = headers.get('authorization');
  return value?.startsWith('Bearer ') ? value.slice(7).trim() : null;
}
