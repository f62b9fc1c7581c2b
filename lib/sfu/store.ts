import 'server-only';
import { config } from '@/lib/environment';
import { MemoryPlacementStore, type PlacementStore } from './placement';

// One placement store per process, on globalThis for the same reason as the meeting hub
// (lib/meeting/server/get-hub.ts): Next.js may load this module once per route bundle.
const holder = globalThis as typeof globalThis & { __enclaveSfuPlacements?: Promise<PlacementStore> };

/** Redis when REDIS_URL is set (several app instances agree on a meeting's node), else memory. */
export function placements(): Promise<PlacementStore> {
  holder.__enclaveSfuPlacements ??= createStore();
  return holder.__enclaveSfuPlacements;
}

/** Lets go of the store's Redis connection (shutdown, tests). */
export async function closePlacements(): Promise<void> {
  const store = holder.__enclaveSfuPlacements;
  holder.__enclaveSfuPlacements = undefined;
  if (store) await (await store).close();
}

async function createStore(): Promise<PlacementStore> {
  if (!config.redisUrl) return new MemoryPlacementStore();
  const [{ default: Redis }, { RedisPlacementStore }] = await Promise.all([import('ioredis'), import('./placement-redis')]);
  return new RedisPlacementStore(new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }));
}
