// Issue 46 point 5, the server's half: the Janus node a meeting is on dies (SIGKILL) and every
// participant's browser asks for a new ticket at once (lib/meeting/client/call/route-decisions.ts).
// The first request finds the dead node, releases the meeting's placement there and places it on
// the healthy node (lib/sfu/ticket.ts); everyone after lands on that same node, with placements in
// memory (one app instance) and in Redis (several). Real Janus nodes from deploy/janus.
import Redis from 'ioredis';
import { config } from '@/lib/environment';
import { MemoryPlacementStore, type PlacementStore } from '@/lib/sfu/placement';
import { RedisPlacementStore } from '@/lib/sfu/placement-redis';
import { closePlacements, placements } from '@/lib/sfu/store';
import { sfuTicketFor } from '@/lib/sfu/ticket';
import { videoRoomHandle, type JanusSocket } from '../support/janus-client';
import { startJanus } from '../support/janus.mjs';
import { portBlock } from '../support/test-ports';

type Janus = Awaited<ReturnType<typeof startJanus>>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const settings = config as Mutable<typeof config>;

// This file's ports (tests/support/test-ports.ts): the nodes' APIs at +0 and +3, their media from +10.
const first = portBlock('sfu-failover');
const SECRET = 'sfu-failover-test-secret';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let nodes: Janus[] = [];
const sockets: JanusSocket[] = [];

beforeEach(async () => {
  nodes = await Promise.all(
    [0, 1].map((index) => startJanus({ basePort: first + 3 * index, rtpPorts: `${first + 10 + 10 * index}-${first + 19 + 10 * index}`, secret: SECRET })),
  );
  Object.assign(settings, { sfuUrls: nodes.map((node) => `${node.wsUrl}|${node.httpUrl}`).join(','), sfuSecret: SECRET });
}, 30_000);
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  await closePlacements();
  await Promise.all(nodes.map((node) => node.stop()));
  Object.assign(settings, { sfuUrls: undefined, sfuSecret: undefined, redisUrl: undefined });
});

const meeting = () => `failover-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const people = Array.from({ length: 6 }, (_, index) => `p${index + 1}`);

/** SIGKILL, as a crash: no goodbye to anyone; resolves once its API no longer answers. */
async function kill(node: Janus) {
  process.kill(node.pid!, 'SIGKILL');
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const answers = await fetch(`${node.httpUrl}/info`).then(
      () => true,
      () => false,
    );
    if (!answers) return;
  }
  throw new Error('the killed Janus still answers');
}

it.each([
  ['in memory', undefined],
  ['in Redis (several app instances)', REDIS_URL],
])(
  'a call of six whose node dies: the first new ticket moves the meeting to the healthy node, everyone else follows there (placement %s)',
  async (_label, redisUrl) => {
    Object.assign(settings, { redisUrl });
    await closePlacements();
    const meetingId = meeting();
    const before = await Promise.all(people.map((id) => sfuTicketFor(meetingId, id, { publishers: 6 })));
    const dead = nodes.find((node) => node.wsUrl === before[0]!.url)!;
    const healthy = nodes.find((node) => node !== dead)!;
    expect(new Set(before.map((ticket) => ticket.url))).toEqual(new Set([dead.wsUrl]));
    // Redis keeps earlier runs' placements on these same addresses: what counts is the change.
    const urls = nodes.map((node) => node.wsUrl);
    const loadBefore = await (await placements()).load(urls);

    await kill(dead);
    const started = Date.now();
    const firstAfter = await sfuTicketFor(meetingId, people[0]!, { publishers: 6 });
    expect(firstAfter.url).toBe(healthy.wsUrl);
    expect(await (await placements()).get(meetingId)).toBe(healthy.wsUrl);
    // The others ask at the same moment, each from its own browser.
    const rest = await Promise.all(people.slice(1).map((id) => sfuTicketFor(meetingId, id, { publishers: 6 })));
    console.log(`six new tickets after the kill in ${Date.now() - started} ms (${_label})`);
    expect(new Set(rest.map((ticket) => ticket.url))).toEqual(new Set([healthy.wsUrl]));
    expect(await (await placements()).load(urls)).toEqual({ [dead.wsUrl]: loadBefore[dead.wsUrl]! - 1, [healthy.wsUrl]: loadBefore[healthy.wsUrl]! + 1 });

    // The tickets open the room on the healthy node.
    const { socket, handleId } = await videoRoomHandle(rest[0]!.url, rest[0]!.token);
    sockets.push(socket);
    const joined = await socket.message(rest[0]!.token, handleId, {
      request: 'join',
      ptype: 'publisher',
      room: rest[0]!.room,
      id: people[1],
      token: rest[0]!.roomToken,
    });
    expect(joined.plugindata?.data).toMatchObject({ videoroom: 'joined' });
    await (await placements()).release(meetingId);
  },
  60_000,
);

it.each([
  ['in memory', () => new MemoryPlacementStore()],
  ['in Redis', () => new RedisPlacementStore(new Redis(REDIS_URL))],
])(
  'a request that found a node dead releases the meeting only from that node, never the healthy node another request placed it on meanwhile (%s)',
  async (_label, create: () => PlacementStore) => {
    const store = create();
    try {
      const [dead, healthy] = [`ws://dead-${Math.random()}`, `ws://healthy-${Math.random()}`];
      const meetingId = meeting();
      expect((await store.place(meetingId, [dead, healthy])).node).toBe(dead);
      // The first request: the dead node fails, its placement goes, the healthy node gets the meeting.
      expect(await store.release(meetingId, dead)).toBe(dead);
      expect((await store.place(meetingId, [healthy])).node).toBe(healthy);
      // A second request that had read the dead node before and failed on it later.
      expect(await store.release(meetingId, dead)).toBeNull();
      expect(await store.get(meetingId)).toBe(healthy);
      expect(await store.load([dead, healthy])).toEqual({ [dead]: 0, [healthy]: 1 });
      expect(await store.release(meetingId)).toBe(healthy);
    } finally {
      await store.close();
    }
  },
);
