import 'server-only';
import type Redis from 'ioredis';
import type { ServerEvent } from '@/lib/meeting/protocol';
import {
  countLive,
  eventsAfter,
  JOINING_TTL_MS,
  KEPT_EVENTS,
  SEEN_TTL_MS,
  type EventListener,
  type Hub,
  type NumberedEvent,
  type RosterEntry,
  type TouchResult,
} from './hub';

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

// Number the event, keep it and deliver it in one step, so that the kept list and the channel see
// the same ids in the same order whichever instance publishes. The id counter outlives the list:
// an id is never given twice to one participant, so a stale Last-Event-ID cannot replay the wrong events.
const PUBLISH = `
local id = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
local message = '{"id":' .. id .. ',"event":' .. ARGV[1] .. '}'
redis.call('RPUSH', KEYS[2], message)
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PUBLISH', KEYS[3], message)
return id
`;
/** Kept events outlast any reconnection: a seat not refreshed for SEEN_TTL_MS is gone anyway. */
const EVENTS_TTL_MS = 10 * 60 * 1000;

/**
 * The hub over Redis: roster in a hash per meeting, events over pub/sub, one channel per
 * participant, and each participant's recent events in a capped list for replay by any instance.
 */
export class RedisHub implements Hub {
  private readonly listeners = new Map<string, Set<EventListener>>();

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
  ) {
    subscriber.on('message', (channel: string, message: string) => {
      const listeners = this.listeners.get(channel);
      if (!listeners) return;
      let numbered: NumberedEvent;
      try {
        numbered = JSON.parse(message) as NumberedEvent;
      } catch {
        return;
      }
      for (const listener of listeners) listener(numbered.event, numbered.id);
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
    const keys = [this.key(meetingId, `seq:${participantId}`), this.key(meetingId, `events:${participantId}`), this.key(meetingId, `to:${participantId}`)];
    await this.redis.eval(PUBLISH, keys.length, ...keys, JSON.stringify(event), String(KEPT_EVENTS), String(KEY_TTL_MS), String(EVENTS_TTL_MS));
  }

  async recent(meetingId: string, participantId: string, after: number) {
    // The list first: an event published between the two reads is then in neither or only in the
    // count, and reaches the stream live, through the subscription made before this read.
    const kept = await this.redis.lrange(this.key(meetingId, `events:${participantId}`), 0, -1);
    const last = Number((await this.redis.get(this.key(meetingId, `seq:${participantId}`))) ?? 0);
    return eventsAfter(
      kept.map((raw) => JSON.parse(raw) as NumberedEvent),
      last,
      after,
    );
  }

  async subscribe(meetingId: string, participantId: string, listener: EventListener) {
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
