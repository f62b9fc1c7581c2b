// Two RedisHub instances stand for two app instances sharing one Redis (real Redis on loopback).
import Redis from 'ioredis';
import type { ServerEvent } from '@/lib/meeting/protocol';
import type { RosterEntry } from '@/lib/meeting/server/hub';
import { RedisHub } from '@/lib/meeting/server/hub-redis';
import { liveRoster } from '@/lib/meeting/server/roster';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const hubs: RedisHub[] = [];
function hub() {
  const created = new RedisHub(new Redis(url), new Redis(url));
  hubs.push(created);
  return created;
}
afterAll(() => Promise.all(hubs.map((h) => h.close())));

const meetingId = () => `test-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const entry = (id: string, overrides: Partial<RosterEntry> = {}): RosterEntry => ({
  id,
  name: id,
  isHost: false,
  state: 'admitted',
  seen: Date.now(),
  joinedAt: Date.now(),
  ...overrides,
});

function nextEvent(h: RedisHub, meeting: string, participant: string): Promise<ServerEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no event')), 5000);
    void h.subscribe(meeting, participant, (event) => {
      clearTimeout(timer);
      resolve(event);
    });
  });
}

describe('the Redis hub', () => {
  it('delivers what one instance publishes to a participant subscribed on another', async () => {
    const [west, east] = [hub(), hub()];
    const meeting = meetingId();
    const received = nextEvent(west, meeting, 'alice');
    await new Promise((resolve) => setTimeout(resolve, 100)); // the SUBSCRIBE reaches Redis
    await east.publish(meeting, 'alice', { type: 'locked', locked: true });
    expect(await received).toEqual({ type: 'locked', locked: true });
  });

  it('shares the roster, the lock and bans across instances', async () => {
    const [west, east] = [hub(), hub()];
    const meeting = meetingId();
    await west.put(meeting, entry('alice'));
    expect(await east.get(meeting, 'alice')).toMatchObject({ id: 'alice', state: 'admitted' });
    await east.setLocked(meeting, true);
    expect(await west.isLocked(meeting)).toBe(true);
    await west.ban(meeting, 'mallory');
    expect(await east.isBanned(meeting, 'mallory')).toBe(true);
    expect(await east.remove(meeting, 'alice')).toBe(true);
    expect(await west.remove(meeting, 'alice')).toBe(false);
  });

  it('gives exactly `limit` seats to concurrent reservations from several instances', async () => {
    const instances = [hub(), hub(), hub()];
    const meeting = meetingId();
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, i) => instances[i % 3]!.reserve(meeting, entry(`p${i}`, { state: 'joining' }), 2)),
    );
    expect(results.filter(Boolean)).toHaveLength(2);
    expect(await instances[0]!.list(meeting)).toHaveLength(2);
  });

  it('drops participants whose instance stopped vouching for them, and tells the others', async () => {
    const [west, east] = [hub(), hub()];
    const meeting = meetingId();
    await west.put(meeting, entry('alive'));
    await west.put(meeting, entry('ghost', { seen: Date.now() - 20_000 }));
    const told = nextEvent(west, meeting, 'alive');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const live = await liveRoster(east, meeting);
    expect(live.map((e) => e.id)).toEqual(['alive']);
    expect(await told).toEqual({ type: 'leave', participantId: 'ghost', reason: 'lost' });
    // A stale seat no longer counts against the limit.
    await west.put(meeting, entry('ghost2', { seen: Date.now() - 20_000 }));
    expect(await east.reserve(meeting, entry('newcomer', { state: 'joining' }), 2)).toBe(true);
  });
});
