import 'server-only';
import { config } from '@/lib/environment';
import { processSlot } from '@/lib/process-slot';
import { openRedis } from '@/lib/redis';
import { MemoryPlacementStore, type PlacementStore } from './placement';

// One placement store per process, like the meeting hub (lib/meeting-server/get-hub.ts).
const store = processSlot<Promise<PlacementStore>>('sfu.placements');

/** Redis when REDIS_URL is set (several app instances agree on a meeting's node), else memory. */
export function placements(): Promise<PlacementStore> {
  return store.getOrCreate(createStore);
}

/** Lets go of the store's Redis connection (shutdown, tests). */
export async function closePlacements(): Promise<void> {
  const current = store.set(undefined);
  if (current) await (await current).close();
}

async function createStore(): Promise<PlacementStore> {
  if (!config.redisUrl) return new MemoryPlacementStore();
  const [{ RedisPlacementStore }, connection] = await Promise.all([import('./placement-redis'), openRedis()]);
  return new RedisPlacementStore(connection);
}
