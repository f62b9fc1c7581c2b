import 'server-only';
import { randomBytes } from 'node:crypto';
import { config } from '@/lib/environment';
import { processSlot } from '@/lib/process-slot';
import { openRedis } from '@/lib/redis';
import type { Hub } from './hub';
import { MemoryHub } from './hub-memory';

// One hub per process (two in-memory hubs would split a meeting in two).
const hub = processSlot<Promise<Hub>>('meeting.hub');
const instance = processSlot<string>('meeting.instance');

export function getHub(): Promise<Hub> {
  return hub.getOrCreate(createHub);
}

/** Lets go of the hub (Redis connections) when the server stops. */
export async function closeHub(): Promise<void> {
  const current = hub.set(undefined);
  if (current) await (await current).close();
}

async function createHub(): Promise<Hub> {
  if (!config.redisUrl) return new MemoryHub();
  const [{ RedisHub }, publisher, subscriber] = await Promise.all([import('./hub-redis'), openRedis(), openRedis()]);
  return new RedisHub(publisher, subscriber);
}

/** This app instance's name in the roster: who holds a participant's stream. */
export function instanceId(): string {
  return instance.getOrCreate(() => randomBytes(9).toString('base64url'));
}
