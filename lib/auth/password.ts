import 'server-only';
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's minimum (19 MiB memory, 2 passes, 1 lane). The parameters are stored in
 * each hash, so raising them later only needs a rehash at the next login.
 */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/**
 * For an account without a password (made or activated by single sign-on): the hash of a random
 * one nobody is told, so the login form answers as for any wrong password, after the same work.
 */
export function unusablePasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64url'));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash never matches.
    return false;
  }
}

/** A hash of a random password, verified against for unknown e-mails so timing stays alike. */
export const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$C2JpeNLubGGm+FhNAuXKrQ$6LnXCpZUsTwBAddy+Kso0PD8jQAkHJ/vC2Hzfn5sS2s';

/** True when a stored hash was made with weaker parameters than today's (rehash at login). */
export function needsRehash(passwordHash: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(passwordHash);
  if (!match) return true;
  const [memory, time, lanes] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return memory < ARGON2_OPTIONS.memoryCost || time < ARGON2_OPTIONS.timeCost || lanes < ARGON2_OPTIONS.parallelism;
}
