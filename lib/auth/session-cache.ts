import { createHmac } from 'node:crypto';
import { ByteLru } from '@/lib/cache/byte-lru';
import type { SessionData } from './session-data';

// Unsealing a session cookie (iron: PBKDF2 of the secret, HMAC, AES) cost ~0.35 ms of CPU per
// request under load, a sixth of a revalidated calendar request (bench/RESULTS.md, issue 17).
// Its result depends only on the cookie, the secret and the clock, so each process remembers the
// cookies it has verified until their seal expires. This replaces the cryptography only: whether
// the session still counts (session version, logged-out ids, account state) is read from the
// database on every request (lib/auth/session.ts; on PGlite, from a copy dropped the moment its rows
// change), so a revoked cookie is refused even when cached.

/** Verified cookies kept per process (a few hundred bytes each): the least recently used go. */
export const SESSION_CACHE_ENTRIES = 10_000;

interface Verified {
  data: SessionData;
  /** When the seal expires (ms): after that the cookie is unsealed again, and refused. */
  expiresAt: number;
}

const cache = new ByteLru<Verified>(SESSION_CACHE_ENTRIES);

// Keyed by an HMAC under the secret: a key says nothing about the cookie, and a new secret finds nothing.
const keyOf = (secret: string, cookie: string) => createHmac('sha256', secret).update(cookie).digest('base64url');

/** The session of a cookie verified before and not yet expired (a copy), else undefined. */
export function cachedSession(secret: string, cookie: string, now = Date.now()): SessionData | undefined {
  const key = keyOf(secret, cookie);
  const entry = cache.get(key);
  if (!entry) return undefined;
  if (now >= entry.expiresAt) {
    cache.delete(key);
    return undefined;
  }
  return { ...entry.data };
}

/** Remembers a cookie that unsealed to `data`, until the expiry its seal carries. */
export function rememberSession(secret: string, cookie: string, data: SessionData): void {
  const expiresAt = sealExpiry(cookie);
  if (expiresAt === null) return;
  cache.set(keyOf(secret, cookie), { data: { ...data }, expiresAt }, 1);
}

/**
 * The expiry (ms) of an iron seal, "Fe26.2*id*salt*iv*data*expiration*hmacSalt*hmac~2": the
 * HMAC covers it, and the caller only asks after the seal was verified. Null without one.
 */
export function sealExpiry(cookie: string): number | null {
  const expiration = cookie.split('~')[0]!.split('*')[5];
  return expiration && /^\d+$/.test(expiration) ? Number(expiration) : null;
}

/** For tests: forget every verified cookie. */
export function clearSessionCache() {
  cache.clear();
}
