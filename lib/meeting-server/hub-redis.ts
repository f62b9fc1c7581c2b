import 'server-only';
import type Redis from 'ioredis';
import type { ServerEvent } from '@/lib/meeting/protocol';
import { countLive, JOINING_TTL_MS, SEEN_TTL_MS, type Hub, type RosterEntry, type TouchResult } from './hub';

const PREFIX = 'enclave:meeting:';
const KEY_TTL_MS = 24 * 3600 * 1000;

// Count the live seats and take one in a single step, so two instances cannot both take the last.
const RESERVE = `
local now = tonumber(ARGV[2])
local live = 0
for _, raw in ipairs(redis.call('HVALS', KEYS[1])) do
  local entry = cjson.decode(raw)
  local ttl = tonumber(ARGV[5])
  if entry.state == 'joining' then ttl = tonumber(ARGV[4]) end
  if now - entry.seen <= ttl then live = live + 1 end
end
if live >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[6], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return 1
`;

// Refresh `seen` only for the instance that holds the entry, and never bring back a removed one.
const TOUCH = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local entry = cjson.decode(raw)
if entry.instance ~= ARGV[2] then return 2 end
entry.seen = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(entry))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

// Remove an entry only while the given instance still holds it.
const REMOVE_HELD = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
if cjson.decode(raw).instance ~= ARGV[2] then return 0 end
return redis.call('HDEL', KEYS[1], ARGV[1])
`;

/** The hub over Redis: roster in a hash per meeting, events over pub/sub, one channel per participant. */
export class RedisHub implements Hub {
  private readonly listeners = new Map<string, Set<(event: ServerEvent) => void>>();

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      const listeners = this.listeners.get(channel);
      if (!listeners) return;
      let event: ServerEvent;
      try {
        event = JSON.parse(message) as ServerEvent;
      } catch {
        return;
      }
      for (const listener of listeners) listener(event);
    });
  }

  private key(meetingId: string, part: string) {
    return `${PREFIX}${meetingId}:${part}`;
  }

  async reserve(meetingId: string, entry: RosterEntry, limit: number) {
    const result = await this.redis.eval(
      RESERVE,
      1,
      this.key(meetingId, 'roster'),
      JSON.stringify(entry),
      String(Date.now()),
      String(limit),
      String(JOINING_TTL_MS),
      String(SEEN_TTL_MS),
      entry.id,
      String(KEY_TTL_MS),
    );
    return result === 1;
  }

  async get(meetingId: string, participantId: string) {
    const raw = await this.redis.hget(this.key(meetingId, 'roster'), participantId);
    return raw ? (JSON.parse(raw) as RosterEntry) : null;
  }

  async list(meetingId: string) {
    const values = await this.redis.hvals(this.key(meetingId, 'roster'));
    return values.map((raw) => JSON.parse(raw) as RosterEntry);
  }

  async put(meetingId: string, entry: RosterEntry) {
    const key = this.key(meetingId, 'roster');
    await this.redis.multi().hset(key, entry.id, JSON.stringify(entry)).pexpire(key, KEY_TTL_MS).exec();
  }

  async remove(meetingId: string, participantId: string, heldBy?: string) {
    const key = this.key(meetingId, 'roster');
    if (heldBy === undefined) return (await this.redis.hdel(key, participantId)) === 1;
    return (await this.redis.eval(REMOVE_HELD, 1, key, participantId, heldBy)) === 1;
  }

  async touch(meetingId: string, participantId: string, instance: string, now = Date.now()): Promise<TouchResult> {
    const result = await this.redis.eval(TOUCH, 1, this.key(meetingId, 'roster'), participantId, instance, String(now), String(KEY_TTL_MS));
    return result === 1 ? 'held' : result === 2 ? 'moved' : 'gone';
  }

  async ban(meetingId: string, participantId: string) {
    const key = this.key(meetingId, 'banned');
    await this.redis.multi().sadd(key, participantId).pexpire(key, KEY_TTL_MS).exec();
  }

  async isBanned(meetingId: string, participantId: string) {
    return (await this.redis.sismember(this.key(meetingId, 'banned'), participantId)) === 1;
  }

  async isLocked(meetingId: string) {
    return (await this.redis.get(this.key(meetingId, 'locked'))) === '1';
  }

  async setLocked(meetingId: string, locked: boolean) {
    if (locked) await this.redis.set(this.key(meetingId, 'locked'), '1', 'PX', KEY_TTL_MS);
    else await this.redis.del(this.key(meetingId, 'locked'));
  }

  async publish(meetingId: string, participantId: string, event: ServerEvent) {
    await this.redis.publish(this.key(meetingId, `to:${participantId}`), JSON.stringify(event));
  }

  async subscribe(meetingId: string, participantId: string, listener: (event: ServerEvent) => void) {
    const channel = this.key(meetingId, `to:${participantId}`);
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      await this.subscriber.subscribe(channel);
    }
    set.add(listener);
    return async () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        await this.subscriber.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  /** Every instance's meetings: the rosters are shared, so each instance reports the same figures. */
  async census() {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', `${PREFIX}*:roster`, 'COUNT', 500);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.hvals(key);
    const results = keys.length ? ((await pipeline.exec()) ?? []) : [];
    return countLive(results.map(([, values]) => ((values as string[] | null) ?? []).map((raw) => JSON.parse(raw) as RosterEntry)));
  }

  async close() {
    this.listeners.clear();
    this.subscriber.disconnect();
    this.redis.disconnect();
  }
}
