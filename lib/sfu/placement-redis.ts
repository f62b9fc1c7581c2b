import 'server-only';
import type Redis from 'ioredis';
import { leastLoaded, PLACEMENT_TTL_MS, type PlacementStore } from './placement';

const PREFIX = 'enclave:sfu:';
/** meeting → node, expiring with the placement. */
const placementKey = (meetingId: string) => `${PREFIX}placement:${meetingId}`;
/** node → its meetings, each scored by when its placement expires: counting never drifts. */
const nodeKey = (node: string) => `${PREFIX}node:${node}`;

// KEYS: placement key, then each node's key. ARGV: meeting, now, ttl, the node names, then the
// node keys' prefix (to reach the key of a node no longer listed).
// Keeps a placement on a listed node, else places on the least loaded node; one step, so two
// app instances placing the same meeting agree.
const PLACE = `
local meeting, now, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local current = redis.call('GET', KEYS[1])
local chosen, best, placed = nil, nil, 0
for i = 2, #KEYS do
  local node = ARGV[i + 2]
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if current == node then chosen = i end
end
if not chosen then
  placed = 1
  -- Its node left the list: it no longer counts there.
  if current then redis.call('ZREM', ARGV[3 + #KEYS] .. current, meeting) end
  for i = 2, #KEYS do
    local count = redis.call('ZCARD', KEYS[i])
    if not best or count < best then best, chosen = count, i end
  end
end
redis.call('ZADD', KEYS[chosen], now + ttl, meeting)
redis.call('PEXPIRE', KEYS[chosen], ttl)
redis.call('SET', KEYS[1], ARGV[chosen + 2], 'PX', ttl)
return {ARGV[chosen + 2], placed}
`;

// KEYS: placement key. ARGV: meeting, the node keys' prefix, the node it must be on ('' for any).
// Forgets the placement in one step: two app instances' requests that found a node dead at once
// release it once, and never the node one of them placed the meeting on meanwhile.
const RELEASE = `
local node = redis.call('GET', KEYS[1])
if not node or (ARGV[3] ~= '' and node ~= ARGV[3]) then return false end
redis.call('DEL', KEYS[1])
redis.call('ZREM', ARGV[2] .. node, ARGV[1])
return node
`;

/** Placements in Redis (REDIS_URL): every app instance sends a meeting to the same node. */
export class RedisPlacementStore implements PlacementStore {
  constructor(private readonly redis: Redis) {}

  async place(meetingId: string, nodes: readonly string[], now = Date.now()) {
    if (nodes.length === 0) leastLoaded(nodes, {});
    const keys = [placementKey(meetingId), ...nodes.map(nodeKey)];
    const [node, placed] = (await this.redis.eval(PLACE, keys.length, ...keys, meetingId, String(now), String(PLACEMENT_TTL_MS), ...nodes, nodeKey(''))) as [
      string,
      number,
    ];
    return { node, placed: placed === 1 };
  }

  async get(meetingId: string) {
    return this.redis.get(placementKey(meetingId));
  }

  async release(meetingId: string, onlyFrom?: string) {
    const node = (await this.redis.eval(RELEASE, 1, placementKey(meetingId), meetingId, nodeKey(''), onlyFrom ?? '')) as string | null;
    return node ?? null;
  }

  async load(nodes: readonly string[], now = Date.now()) {
    const counts = await Promise.all(nodes.map((node) => this.redis.zcount(nodeKey(node), `(${now}`, '+inf')));
    return Object.fromEntries(nodes.map((node, index) => [node, counts[index]!]));
  }

  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
