// Two RedisHub instances stand for two app instances sharing one Redis (real Redis on loopback);
// the routes run on a Redis hub too, so their stream meets a participant held "elsewhere".
import Redis from 'ioredis';
import { config } from '@/lib/environment';
import { closeDb, getDb } from '@/lib/db/client';
import type { ServerEvent } from '@/lib/meeting/protocol';
import { getHub } from '@/lib/meeting-server/get-hub';
import { KEPT_EVENTS, type RosterEntry } from '@/lib/meeting-server/hub';
import { RedisHub } from '@/lib/meeting-server/hub-redis';
import { liveRoster } from '@/lib/meeting-server/roster';
import { releaseAll } from '@/lib/meeting-server/stream';
import { createUser } from '../support/api';
import { until } from '../support/until';
import { joined, makeRoom, openStream, send, type Stream } from '../support/meeting';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const settings = config as { redisUrl?: string };

const hubs: RedisHub[] = [];
function hub() {
  const created = new RedisHub(new Redis(url), new Redis(url));
  hubs.push(created);
  return created;
}
const streams: Stream[] = [];
beforeAll(async () => {
  await getDb();
  // This file's app instance runs its hub on Redis; rate limits stay in the database (no client to close).
  settings.redisUrl = url;
  await getHub();
  settings.redisUrl = undefined;
}, 60_000);
afterAll(async () => {
  streams.forEach((stream) => stream.close());
  await releaseAll();
  await Promise.all([...hubs.map((h) => h.close()), getHub().then((h) => h.close())]);
  await closeDb();
});

const meetingId = () => `test-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const entry = (id: string, overrides: Partial<RosterEntry> = {}): RosterEntry => ({
  id,
  name: id,
  isHost: false,
  state: 'admitted',
  seen: Date.now(),
  joinedAt: Date.now(),
  instance: 'west',
  ...overrides,
});

/** Subscribes (and waits until Redis confirms it), then resolves with the first event of `type`. */
async function listen(h: RedisHub, meeting: string, participant: string, type?: ServerEvent['type']) {
  let resolve!: (event: ServerEvent) => void;
  const received = new Promise<ServerEvent>((done) => (resolve = done));
  const stop = await h.subscribe(meeting, participant, (event) => (!type || event.type === type) && resolve(event));
  const timeout = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error(`no ${type ?? 'event'}`)), 8000).unref();
  });
  return { event: Promise.race([received, timeout]).finally(() => void stop()) };
}

describe('the Redis hub', () => {
  it('delivers what one instance publishes to a participant subscribed on another', async () => {
    const [west, east] = [hub(), hub()];
    const meeting = meetingId();
    const { event } = await listen(west, meeting, 'alice');
    await east.publish(meeting, 'alice', { type: 'locked', locked: true });
    expect(await event).toEqual({ type: 'locked', locked: true });
  });

  it('numbers and keeps what any instance publishes, for a stream that reconnects to another (Last-Event-ID)', async () => {
    const [west, east] = [hub(), hub()];
    const meeting = meetingId();
    const heard: number[] = [];
    const stop = await west.subscribe(meeting, 'alice', (_, id) => heard.push(id));
    await west.publish(meeting, 'alice', { type: 'locked', locked: true });
    await east.publish(meeting, 'alice', { type: 'locked', locked: false });
    await until(() => heard.length === 2, 'both events');
    await stop();
    // Nobody listens now (her stream is moving): the next events are kept all the same.
    await east.publish(meeting, 'alice', { type: 'muted', from: 'host' });
    expect(heard).toEqual([1, 2]);
    expect(await east.recent(meeting, 'alice', 1)).toEqual([
      { id: 2, event: { type: 'locked', locked: false } },
      { id: 3, event: { type: 'muted', from: 'host' } },
    ]);
    expect(await west.recent(meeting, 'alice', 3)).toEqual([]);
    // An id never given, and one whose successors are no longer kept, cannot be replayed from.
    expect(await west.recent(meeting, 'alice', 4)).toBeNull();
    for (let i = 0; i < KEPT_EVENTS; i++) await west.publish(meeting, 'alice', { type: 'locked', locked: true });
    expect(await east.recent(meeting, 'alice', 1)).toBeNull();
    expect(await east.recent(meeting, 'alice', 3 + 1)).toHaveLength(KEPT_EVENTS - 1);
  });

  it('shares the roster, the lock and bans across instances', async () => {
    const [west, east] = [hub(), hub()];
    const meeting = meetingId();
    await west.put(meeting, entry('alice'));
    expect(await east.get(meeting, 'alice')).toMatchObject({ id: 'alice', state: 'admitted', instance: 'west' });
    await east.setLocked(meeting, true);
    expect(await west.isLocked(meeting)).toBe(true);
    await west.ban(meeting, 'mallory');
    expect(await east.isBanned(meeting, 'mallory')).toBe(true);
    expect(await east.remove(meeting, 'alice')).toBe(true);
    expect(await west.remove(meeting, 'alice')).toBe(false);
  });

  it('lets only the holding instance refresh or drop an entry', async () => {
    const [west, east] = [hub(), hub()];
    const meeting = meetingId();
    await west.put(meeting, entry('alice', { seen: 1 }));
    expect(await east.touch(meeting, 'alice', 'east', 5)).toBe('moved');
    expect(await west.touch(meeting, 'alice', 'west', 1_763_800_000_123)).toBe('held');
    expect((await east.get(meeting, 'alice'))?.seen).toBe(1_763_800_000_123);
    expect(await east.remove(meeting, 'alice', 'east')).toBe(false);
    expect(await west.remove(meeting, 'alice', 'west')).toBe(true);
    // A removed entry is not brought back by a late refresh.
    expect(await west.touch(meeting, 'alice', 'west')).toBe('gone');
    expect(await east.get(meeting, 'alice')).toBeNull();
  });

  it('gives exactly `limit` seats to concurrent reservations from several instances', async () => {
    const instances = [hub(), hub(), hub()];
    const meeting = meetingId();
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, i) => instances[i % 3]!.reserve(meeting, entry(`p${i}`, { state: 'joining', instance: null }), 2)),
    );
    expect(results.filter(Boolean)).toHaveLength(2);
    expect(await instances[0]!.list(meeting)).toHaveLength(2);
  });

  // /metrics's live figures (lib/metrics/meeting.ts): with Redis, every instance counts all of them.
  // (Other test processes may share this Redis: the figures grow by at least this meeting's.)
  it('counts the live meetings and participants that every instance holds', async () => {
    const [west, east] = [hub(), hub()];
    const before = await east.census();
    const id = meetingId();
    await west.put(id, entry('a', { instance: 'west' }));
    await west.put(id, entry('b', { instance: 'west', state: 'waiting' }));
    await east.put(id, entry('c', { instance: 'east' }));
    await west.put(id, entry('gone', { seen: Date.now() - 60_000 }));
    const after = await east.census();
    expect(after.meetings - before.meetings).toBeGreaterThanOrEqual(1);
    expect(after.participants.admitted - before.participants.admitted).toBeGreaterThanOrEqual(2);
    expect(after.participants.waiting - before.participants.waiting).toBeGreaterThanOrEqual(1);
    await Promise.all(['a', 'b', 'c', 'gone'].map((participant) => west.remove(id, participant)));
  });

  it('drops participants whose instance stopped vouching for them, and tells the others', async () => {
    const [west, east] = [hub(), hub()];
    const meeting = meetingId();
    await west.put(meeting, entry('alive'));
    await west.put(meeting, entry('ghost', { seen: Date.now() - 20_000, instance: 'dead' }));
    const { event } = await listen(west, meeting, 'alive');
    const live = await liveRoster(east, meeting);
    expect(live.map((e) => e.id)).toEqual(['alive']);
    expect(await event).toEqual({ type: 'leave', participantId: 'ghost', reason: 'lost' });
    // A stale seat no longer counts against the limit.
    await west.put(meeting, entry('ghost2', { seen: Date.now() - 20_000, instance: 'dead' }));
    expect(await east.reserve(meeting, entry('newcomer', { state: 'joining', instance: null }), 2)).toBe(true);
  });
});

describe('the signaling routes over Redis', () => {
  it('relay between a participant streaming here and one held by another instance', async () => {
    const { user } = await createUser({ isTrial: false });
    const meeting = await makeRoom(user);
    const ada = await joined(meeting, 'Ada');
    const stream = await openStream(meeting, ada.token);
    streams.push(stream);
    await stream.next('welcome');
    // Bob's stream lives on the "east" instance: his entry names it, his events go through its hub.
    const east = hub();
    const bob = await joined(meeting, 'Bob');
    const atBob = await listen(east, meeting, bob.self.id, 'signal');
    await east.put(meeting, entry(bob.self.id, { name: 'Bob', instance: 'east' }));
    await east.publish(meeting, ada.self.id, { type: 'join', participant: { id: bob.self.id, name: 'Bob', isHost: false } });
    expect(await stream.next('join')).toMatchObject({ participant: { id: bob.self.id } });

    expect((await send(meeting, ada.token, { type: 'signal', to: bob.self.id, envelope: '{"k":"hello"}' })).status).toBe(200);
    expect(await atBob.event).toEqual({ type: 'signal', from: ada.self.id, envelope: '{"k":"hello"}' });
    expect((await send(meeting, bob.token, { type: 'signal', to: ada.self.id, envelope: 'end' })).status).toBe(200);
    expect(await stream.next('signal')).toMatchObject({ from: bob.self.id, envelope: 'end' });
  });

  // docs/reliability.md "An app instance dies mid-call": the instance that takes a stream over sends what it missed.
  it('sends a stream taken over from another instance the events published while it moved, not a fresh welcome', async () => {
    const { user } = await createUser({ isTrial: false });
    const meeting = await makeRoom(user);
    const ada = await joined(meeting, 'Ada');
    // Ada's stream was on "east", which died after writing her welcome and Bob's join.
    const east = hub();
    await east.put(meeting, entry(ada.self.id, { name: 'Ada', isHost: true, instance: 'east' }));
    await east.publish(meeting, ada.self.id, { type: 'welcome', self: { id: ada.self.id, name: 'Ada', isHost: true }, participants: [], locked: false });
    await east.publish(meeting, ada.self.id, { type: 'join', participant: { id: 'bob', name: 'Bob', isHost: false } });
    const seen = (await east.recent(meeting, ada.self.id, 0))!.at(-1)!.id;
    // While her browser reconnects, Bob's offer reaches nobody.
    await east.publish(meeting, ada.self.id, { type: 'signal', from: 'bob', envelope: '{"k":"offer"}' });
    const stream = await openStream(meeting, ada.token, String(seen));
    streams.push(stream);
    expect(await stream.next('signal')).toMatchObject({ from: 'bob', envelope: '{"k":"offer"}' });
    expect(stream.pending().some((event) => event.type === 'welcome')).toBe(false);
    // And what comes next follows, numbered on.
    await east.publish(meeting, ada.self.id, { type: 'signal', from: 'bob', envelope: 'end' });
    const next = await stream.next('signal');
    expect(next).toMatchObject({ envelope: 'end' });
    expect(Number(next.id)).toBe(seen + 2);
  });

  it('announces within seconds a participant whose instance died', async () => {
    const { user } = await createUser({ isTrial: false });
    const meeting = await makeRoom(user);
    const ada = await joined(meeting, 'Ada');
    const stream = await openStream(meeting, ada.token);
    streams.push(stream);
    await stream.next('welcome');
    // Last vouched for 13 s ago by an instance that is gone: lost 2 s from now, noticed at the next refresh.
    await hub().put(meeting, entry('ghost', { seen: Date.now() - 13_000, instance: 'dead' }));
    const started = Date.now();
    expect(await stream.next('leave', 10_000)).toEqual(expect.objectContaining({ participantId: 'ghost', reason: 'lost' }));
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 20_000);
});
