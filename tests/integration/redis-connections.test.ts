import type Redis from 'ioredis';
import { config } from '@/lib/environment';
import { processSlot } from '@/lib/process-slot';
import { closeRedis, openRedis } from '@/lib/redis';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';

// Issue 45: every Redis connection of the process is opened by lib/redis.ts, and closeRedis() at
// shutdown (lib/server-shutdown.ts) ends those their owners left open: the rate limits'
// connection was never closed.
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const settings = config as { redisUrl?: string };

beforeAll(() => {
  settings.redisUrl = url;
});
afterAll(async () => {
  await closeRedis();
  settings.redisUrl = undefined;
});

it("closes at shutdown every connection still open, the rate limits' included", async () => {
  const own = await openRedis();
  expect(await own.ping()).toBe('PONG');
  // The rate limits open theirs on first use, through lib/redis.ts, into their process slot.
  await consumeAttempt(limits.reset, `redis-connections-${Date.now()}`);
  const rateLimits = await processSlot<Promise<Redis>>('security.rateLimitRedis').get();
  expect(rateLimits?.status).toBe('ready');

  await closeRedis();
  expect(own.status).toBe('end');
  expect(rateLimits?.status).toBe('end');
});

it('refuses to open a connection without REDIS_URL', async () => {
  settings.redisUrl = undefined;
  await expect(openRedis()).rejects.toThrow('REDIS_URL is not set');
  settings.redisUrl = url;
});
