import 'server-only';
import { randomBytes } from 'node:crypto';
import { config } from '@/lib/environment';
import type { Hub } from './hub';
import { MemoryHub } from './hub-memory';

// One hub per process. Kept on globalThis because Next.js may load this module more than once
// (one copy per route bundle); two in-memory hubs would split a meeting in two.
const holder = globalThis as typeof globalThis & { __enclaveHub?: Promise<Hub>; __enclaveInstance?: string };

export function getHub(): Promise<Hub> {
  holder.__enclaveHub ??= createHub();
  return holder.__enclaveHub;
}

/** Lets go of the hub (Redis connections) when the server stops. */
export async function closeHub(): Promise<void> {
  const hub = holder.__enclaveHub;
  holder.__enclaveHub = undefined;
  if (hub) await (await hub).close();
}

async function createHub(): Promise<Hub> {
  if (!config.redisUrl) return new MemoryHub();
  const [{ default: Redis }, { RedisHub }] = await Promise.all([import('ioredis'), import('./hub-redis')]);
  const options = { maxRetriesPerRequest: 2, lazyConnect: false };
  return new RedisHub(new Redis(config.redisUrl, options), new Redis(config.redisUrl, options));
}

/** This app instance's name in the roster: who holds a participant's stream. */
export function instanceId(): string {
  holder.__enclaveInstance ??= randomBytes(9).toString('base64url');
  return holder.__enclaveInstance;
}
