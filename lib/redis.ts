import 'server-only';
import type Redis from 'ioredis';
import { config } from '@/lib/environment';
import { processSlot } from '@/lib/process-slot';

// Every Redis connection of the process is opened here (REDIS_URL): the meeting hub's two (one
// subscribes, which takes a connection for itself), the SFU placements' and the rate limits'.
// Each owner closes its own; closeRedis() at shutdown lets go of any still open, so a stopping
// server never hangs on a socket nobody closed (the rate limits' once was).

const open = processSlot<Set<Redis>>('redis.connections');

/** A new connection to REDIS_URL (which must be set), tracked until it ends. */
export async function openRedis(): Promise<Redis> {
  if (!config.redisUrl) throw new Error('openRedis: REDIS_URL is not set');
  const { default: RedisClient } = await import('ioredis');
  const connection = new RedisClient(config.redisUrl, { maxRetriesPerRequest: 2 });
  const connections = open.getOrCreate(() => new Set());
  connections.add(connection);
  connection.once('end', () => connections.delete(connection));
  return connection;
}

/** Ends every connection still open (shutdown, tests); resolves once each has ended. */
export async function closeRedis(): Promise<void> {
  const connections = [...(open.get() ?? [])];
  open.get()?.clear();
  await Promise.all(connections.map(endConnection));
}

function endConnection(connection: Redis): Promise<void> {
  if (connection.status === 'end') return Promise.resolve();
  return new Promise((resolve) => {
    connection.once('end', () => resolve());
    connection.quit().catch(() => connection.disconnect());
  });
}
