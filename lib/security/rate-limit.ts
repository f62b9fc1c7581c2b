import 'server-only';
import { sql } from 'drizzle-orm';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { config } from '@/lib/environment';
import { getDb } from '@/lib/db/client';
import { rateLimits } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors';
import { processSlot } from '@/lib/process-slot';
import { openRedis } from '@/lib/redis';
import { clientAddress, configuredTrustedProxies } from './client-address';

/**
 * Soft limits for credential endpoints: `points` attempts per `durationSeconds` window per key,
 * then too_many_attempts (429) until the window ends. Nothing is ever locked for good.
 * Counters live in Redis when REDIS_URL is set (rate-limiter-flexible), else in the database,
 * so that limits hold across app instances either way.
 */
export interface RateLimit {
  name: string;
  points: number;
  durationSeconds: number;
}

export const limits = {
  // Per account and client: an attacker elsewhere cannot lock a person out of their account…
  loginPerAccountClient: { name: 'login-account-client', points: 10, durationSeconds: 15 * 60 },
  // …and a slower limit per account caps guessing spread over many addresses.
  loginPerAccount: { name: 'login-account', points: 100, durationSeconds: 60 * 60 },
  loginPerIp: { name: 'login-ip', points: 50, durationSeconds: 15 * 60 },
  // The three above count only browsers without a device token for the account they name
  // (lib/auth/device-cookie.ts); a browser with one has this limit instead, keyed by its token,
  // so guessing from elsewhere does not lock the person out of a browser they used before.
  loginPerDevice: { name: 'login-device', points: 10, durationSeconds: 15 * 60 },
  reset: { name: 'reset', points: 5, durationSeconds: 60 * 60 },
  resetPerIp: { name: 'reset-ip', points: 20, durationSeconds: 60 * 60 },
  twoFactor: { name: '2fa', points: 5, durationSeconds: 5 * 60 },
  // The code step of a login from a browser with a device token for the account: its own count,
  // so someone who knows the password cannot hold the owner's second factor by guessing codes.
  twoFactorPerDevice: { name: '2fa-device', points: 5, durationSeconds: 5 * 60 },
  activation: { name: 'activation', points: 20, durationSeconds: 60 * 60 },
  register: { name: 'register-ip', points: 20, durationSeconds: 60 * 60 },
  // "Sign in with …" (issue 35): each start and each callback, per client; a sign-in takes two.
  oidc: { name: 'oidc-ip', points: 60, durationSeconds: 15 * 60 },
  contact: { name: 'contact-ip', points: 5, durationSeconds: 60 * 60 },
  rate: { name: 'rate-ip', points: 10, durationSeconds: 60 * 60 },
  // Each billing call that reaches Stripe: a person subscribes or changes rooms a few times at most.
  billing: { name: 'billing-user', points: 30, durationSeconds: 60 * 60 },
  // Generous: a whole office behind one NAT address joins and rejoins; passwords have their own limit.
  meetingJoin: { name: 'meeting-join-ip', points: 300, durationSeconds: 15 * 60 },
  meetingPassword: { name: 'meeting-password', points: 10, durationSeconds: 15 * 60 },
  // SFU tickets (issue 38), per participant: one every ten minutes in a call, more on reconnections.
  meetingSfu: { name: 'meeting-sfu', points: 30, durationSeconds: 15 * 60 },
  invite: { name: 'invite-user', points: 50, durationSeconds: 60 * 60 },
  // Registration invitations (issue 35), per inviting user: each one mails a stranger.
  registrationInvite: { name: 'registration-invite-user', points: 20, durationSeconds: 60 * 60 },
  // Support tickets (issue 18), per user: opening one, and every reply or status change.
  ticketOpen: { name: 'ticket-open', points: 10, durationSeconds: 60 * 60 },
  ticketWrite: { name: 'ticket-write', points: 60, durationSeconds: 15 * 60 },
} satisfies Record<string, RateLimit>;

interface Consumed {
  points: number;
  /** When the window ends. */
  resetsAt: Date;
}

async function consumeInDatabase(limit: RateLimit, key: string): Promise<Consumed> {
  const db = await getDb();
  const id = `${limit.name}:${key}`;
  const window = `${limit.durationSeconds} seconds`;
  // One atomic upsert: a fresh window when the old one has ended, else one more point.
  const [row] = await db
    .insert(rateLimits)
    .values({ key: id, points: 1, expiresAt: sql`now() + ${window}::interval` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        points: sql`case when ${rateLimits.expiresAt} <= now() then 1 else ${rateLimits.points} + 1 end`,
        expiresAt: sql`case when ${rateLimits.expiresAt} <= now() then now() + ${window}::interval else ${rateLimits.expiresAt} end`,
      },
    })
    .returning();
  return { points: row!.points, resetsAt: row!.expiresAt };
}

// The limits' connection, one per process; closed with the others at shutdown (lib/redis.ts).
const redisConnection = processSlot<Promise<import('ioredis').default>>('security.rateLimitRedis');
const redisLimiters = new Map<string, RateLimiterRedis>();

async function redisLimiter(limit: RateLimit): Promise<RateLimiterRedis> {
  const redisClient = await redisConnection.getOrCreate(openRedis);
  let limiter = redisLimiters.get(limit.name);
  if (!limiter) {
    limiter = new RateLimiterRedis({
      storeClient: redisClient,
      keyPrefix: `enclave:${limit.name}`,
      points: limit.points,
      duration: limit.durationSeconds,
    });
    redisLimiters.set(limit.name, limiter);
  }
  return limiter;
}

async function consumeInRedis(limit: RateLimit, key: string): Promise<Consumed> {
  const consumed = (res: RateLimiterRes) => ({ points: res.consumedPoints, resetsAt: new Date(Date.now() + res.msBeforeNext) });
  try {
    return consumed(await (await redisLimiter(limit)).consume(key));
  } catch (error) {
    if (error instanceof RateLimiterRes) return consumed(error);
    throw error;
  }
}

/**
 * Counts one attempt; throws too_many_attempts when the key has used up its window.
 * `onFirstRefusal` runs for the one attempt that first goes over the limit in a window (the
 * count is atomic, so exactly one caller sees it), before the refusal is thrown.
 */
export async function consumeAttempt(limit: RateLimit, key: string, onFirstRefusal?: () => void): Promise<void> {
  const normalized = key.trim().toLowerCase();
  const { points, resetsAt } = config.redisUrl ? await consumeInRedis(limit, normalized) : await consumeInDatabase(limit, normalized);
  if (points > limit.points) {
    if (points === limit.points + 1) onFirstRefusal?.();
    throw new ApiError('too_many_attempts', { retryAfterSeconds: Math.max(1, Math.ceil((resetsAt.getTime() - Date.now()) / 1000)) });
  }
}

/** Forgets a key's attempts (e.g. after a successful login). */
export async function resetAttempts(limit: RateLimit, key: string): Promise<void> {
  const normalized = key.trim().toLowerCase();
  if (config.redisUrl) {
    await (await redisLimiter(limit)).delete(normalized);
    return;
  }
  const db = await getDb();
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${`${limit.name}:${normalized}`}`);
}

/** The client address for per-client limits: the socket's peer, or what trusted proxies say. */
export function clientIp(headers: Headers): string {
  return clientAddress(headers, configuredTrustedProxies());
}
