import { sealData, unsealData } from 'iron-session';
import { getSessionSecret } from '@/lib/environment';
import { cachedSession, rememberSession } from './session-cache';
import type { SessionData } from './session-data';

export type { SessionData } from './session-data';

// The session cookie: sealed (encrypted and signed) by iron-session, HttpOnly, SameSite=Lax.
export const SESSION_COOKIE = 'enclave_session';
/** Sessions last at most 7 days. */
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** A fresh session for a user: the cookie stays valid until their session version is raised. */
export function sessionFor(user: { id: string; sessionVersion: number; role: SessionData['role'] }, version = user.sessionVersion): SessionData {
  return { userId: user.id, version, role: user.role };
}

function isSessionData(value: unknown): value is SessionData {
  const data = value as Partial<SessionData> | null;
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof data.userId === 'string' &&
    typeof data.version === 'number' &&
    (data.role === 'user' || data.role === 'admin') &&
    (data.sid === undefined || typeof data.sid === 'string')
  );
}

/** Seals a session; each new cookie gets an id of its own unless it carries one. */
export async function sealSession(data: SessionData): Promise<string> {
  return sealData({ ...data, sid: data.sid ?? crypto.randomUUID() }, { password: getSessionSecret(), ttl: SESSION_TTL_SECONDS });
}

/**
 * The session in a cookie value, or null when it is missing, forged or expired. A cookie this
 * process verified before is not unsealed again until its seal expires (./session-cache.ts).
 */
export async function unsealSession(cookieValue: string | undefined): Promise<SessionData | null> {
  if (!cookieValue) return null;
  const password = getSessionSecret();
  const known = cachedSession(password, cookieValue);
  if (known) return known;
  try {
    const data = await unsealData<unknown>(cookieValue, { password, ttl: SESSION_TTL_SECONDS });
    if (!isSessionData(data)) return null;
    rememberSession(password, cookieValue, data);
    return data;
  } catch {
    return null;
  }
}

export function sessionCookieOptions(secure: boolean) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure,
    path: '/',
    maxAge: SESSION_TTL_SECONDS,
  };
}
