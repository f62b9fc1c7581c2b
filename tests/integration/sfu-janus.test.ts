// Issue 38: the app's side of the SFU against real Janus nodes (Debian's janus, configured from
// deploy/janus by tests/support/janus.mjs): what Janus accepts and refuses of the tokens, rooms
// and allowed lists the app makes, kicks, room ends, and placement over two nodes.
import Redis from 'ioredis';
import { config } from '@/lib/environment';
import type { SfuTicket } from '@/lib/meeting/protocol';
import { MemoryHub } from '@/lib/meeting-server/hub-memory';
import { liveRoster } from '@/lib/meeting-server/roster';
import { JanusHttpError, withJanusHttpHandle } from '@/lib/sfu/janus-http';
import { MemoryPlacementStore, type PlacementStore } from '@/lib/sfu/placement';
import { RedisPlacementStore } from '@/lib/sfu/placement-redis';
import { closePlacements, placements } from '@/lib/sfu/store';
import { closeSfuRoom, revokeSfuAccess, sfuTicketFor } from '@/lib/sfu/ticket';
import { janusToken, sfuRoomId, sfuRoomSecret, sfuRoomToken, VIDEOROOM_PLUGIN } from '@/lib/sfu/tokens';
import { videoRoomHandle, type JanusSocket } from '../support/janus-client';
import { startJanus } from '../support/janus.mjs';
import { portBlock } from '../support/test-ports';

type Janus = Awaited<ReturnType<typeof startJanus>>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const settings = config as Mutable<typeof config>;

// This file's ports (tests/support/test-ports.ts): the nodes' APIs at +0 and +3, their media
// from +10, and +30 to +32 where nothing listens.
const first = portBlock('sfu-janus');
const PORTS = { one: first, two: first + 3, rtp: first + 10, nobody: first + 30 };
let one: Janus;
let two: Janus;
const SECRET = 'sfu-janus-test-secret';
const sockets: JanusSocket[] = [];
const startedAt = Date.now();

beforeAll(async () => {
  [one, two] = await Promise.all([
    startJanus({ basePort: PORTS.one, rtpPorts: `${PORTS.rtp}-${PORTS.rtp + 9}`, secret: SECRET }),
    startJanus({ basePort: PORTS.two, rtpPorts: `${PORTS.rtp + 10}-${PORTS.rtp + 19}`, secret: SECRET }),
  ]);
  console.log(`two Janus nodes up in ${Date.now() - startedAt} ms`);
  Object.assign(settings, { sfuUrls: `${one.wsUrl}|${one.httpUrl}`, sfuSecret: SECRET, redisUrl: undefined });
}, 30_000);
afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.close()));
  await closePlacements();
  await Promise.all([one?.stop(), two?.stop()]);
  Object.assign(settings, { sfuUrls: undefined, sfuSecret: undefined });
});

const meeting = () => `sfu-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const token = (seconds = 60, secret = SECRET, plugins: string[] = [VIDEOROOM_PLUGIN]) => janusToken(secret, Date.now() + seconds * 1000, plugins);

/** A browser's session on the ticket's node, with a VideoRoom handle. */
async function browser(ticket: Pick<SfuTicket, 'url' | 'token'>) {
  const opened = await videoRoomHandle(ticket.url, ticket.token);
  sockets.push(opened.socket);
  return opened;
}

/** A publisher join with this room token: Janus's `event` data (joined, or an error). */
async function join(ticket: SfuTicket, participantId: string, roomToken = ticket.roomToken) {
  const { socket, handleId } = await browser(ticket);
  const answer = await socket.message(ticket.token, handleId, { request: 'join', ptype: 'publisher', room: ticket.room, id: participantId, token: roomToken });
  return { socket, handleId, data: answer.plugindata?.data ?? { janusError: answer.error } };
}

/** What the node's admin_key lists of the room (private rooms are listed to its holder only). */
async function roomOnNode(janus: Janus, room: string) {
  return withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token: () => token() }, async (handle) => {
    const { list } = await handle.request<{ list: Record<string, unknown>[] }>({ request: 'list', admin_key: SECRET });
    return list.find((entry) => entry.room === room) ?? null;
  });
}

async function participants(janus: Janus, room: string) {
  return withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token: () => token() }, async (handle) => {
    const answer = await handle.request<{ participants: { id: string }[] }>({ request: 'listparticipants', room });
    return answer.participants.map((participant) => participant.id);
  });
}

describe('the Janus the tests start from deploy/janus', () => {
  it('runs the VideoRoom plugin and the HTTP and WebSocket transports only, with signed tokens required', async () => {
    const info = (await (await fetch(`${one.httpUrl}/info`)).json()) as Record<string, unknown>;
    expect(Object.keys(info.plugins as object)).toEqual([VIDEOROOM_PLUGIN]);
    expect(Object.keys(info.transports as object).sort()).toEqual(['janus.transport.http', 'janus.transport.websockets']);
    expect(info.auth_token).toBe(true);
    // The admin API answers on loopback with its own secret only.
    const status = async (adminSecret: string) =>
      (await (
        await fetch(one.adminUrl, { method: 'POST', body: JSON.stringify({ janus: 'get_status', transaction: 'a', admin_secret: adminSecret }) })
      ).json()) as { janus: string };
    expect((await status(one.adminSecret)).janus).toBe('success');
    expect((await status(SECRET)).janus).toBe('error');
  });
});

describe('Janus tokens', () => {
  it("opens a session over WebSocket with a ticket's token, and refuses an expired, forged or other-plugin one", async () => {
    const ticket = await sfuTicketFor(meeting(), 'p-token', { publishers: 4 });
    expect(ticket.url).toBe(one.wsUrl);
    expect(ticket.token).toMatch(/^\d+,janus,janus\.plugin\.videoroom:[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(ticket.expiresAt - (Date.now() + 600_000))).toBeLessThan(5_000);
    expect(Number(ticket.token.split(',')[0])).toBe(Math.floor(ticket.expiresAt / 1000));
    await browser(ticket);

    const { JanusSocket } = await import('../support/janus-client');
    const socket = await JanusSocket.open(one.wsUrl);
    sockets.push(socket);
    for (const refused of [token(-5), token(60, 'another-secret'), `${token()}x`, '']) {
      const answer = await socket.createSession(refused);
      expect([answer.janus, answer.error?.code]).toEqual(['error', 403]);
    }
    // A token for another plugin opens a session but no VideoRoom handle.
    expect((await socket.createSession(token(60, SECRET, ['janus.plugin.echotest']))).janus).toBe('success');
    const attach = await socket.attach(token(60, SECRET, ['janus.plugin.echotest']));
    expect([attach.janus, attach.error?.code]).toEqual(['error', 405]);
  });

  it('checks the token on every request: an open session needs a fresh token after expiry', async () => {
    const shortLived = token(1);
    const { socket } = await browser({ url: one.wsUrl, token: shortLived });
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const stale = await socket.send({ janus: 'keepalive', token: shortLived });
    expect([stale.janus, stale.error?.code]).toEqual(['error', 403]);
    // A new ticket's token keeps the same session alive.
    expect((await socket.send({ janus: 'keepalive', token: token() })).janus).toBe('ack');
  });
});

describe("the meeting's room", () => {
  it("is created on first ticket with end-to-end encryption required, private, for the meeting's limit", async () => {
    const meetingId = meeting();
    const ticket = await sfuTicketFor(meetingId, 'p-room', { publishers: 250 });
    expect(ticket.room).toBe(sfuRoomId(SECRET, meetingId));
    expect(await roomOnNode(one, ticket.room)).toMatchObject({
      require_e2ee: true,
      require_pvtid: true,
      is_private: true,
      max_publishers: 100,
      audiocodec: 'opus',
      videocodec: 'vp8',
      notify_joining: true,
      record: false,
      lock_record: true,
    });
    // Nobody but the app creates rooms: the plugin wants its admin_key.
    const { socket, handleId } = await browser(ticket);
    const create = (extra: object) =>
      socket.send({ janus: 'message', handle_id: handleId, token: ticket.token, body: { request: 'create', room: 'rogue', require_e2ee: false, ...extra } });
    expect((await create({})).plugindata?.data).toMatchObject({ error_code: 429, error: 'Missing mandatory element (admin_key)' });
    expect((await create({ admin_key: 'a-guess' })).plugindata?.data).toMatchObject({ error_code: 433, error: 'Unauthorized (wrong admin_key)' });
    // Nor edits it: the room's secret is derived, the app's alone.
    const destroy = (extra: object) =>
      socket.send({ janus: 'message', handle_id: handleId, token: ticket.token, body: { request: 'destroy', room: ticket.room, ...extra } });
    expect((await destroy({})).plugindata?.data).toMatchObject({ error_code: 429 });
    expect((await destroy({ secret: 'a-guess' })).plugindata?.data).toMatchObject({ error_code: 433, error: 'Unauthorized (wrong secret)' });
    expect(await roomOnNode(one, ticket.room)).not.toBeNull();
  });

  it('refuses to forward media that is not end-to-end encrypted', async () => {
    const ticket = await sfuTicketFor(meeting(), 'p-e2ee', { publishers: 4 });
    const { socket, handleId } = await browser(ticket);
    const body = { request: 'joinandconfigure', ptype: 'publisher', room: ticket.room, id: 'p-e2ee', token: ticket.roomToken };
    const plain = await socket.message(ticket.token, handleId, body, { type: 'offer', sdp: OFFER });
    expect(plain.plugindata?.data).toMatchObject({ error_code: 433, error: 'Room requires end-to-end encrypted media' });
    // A fresh handle (the refused one has the offer's ICE set up already), with the browser's e2ee flag.
    const second = await browser(ticket);
    // (Janus keeps the refused publisher's id taken: the same join again would be "already exists".)
    const encrypted = await second.socket.message(ticket.token, second.handleId, { ...body, id: 'p-e2ee-2' }, { type: 'offer', sdp: OFFER, e2ee: true });
    expect(encrypted.plugindata?.data).toMatchObject({ videoroom: 'joined', id: 'p-e2ee-2' });
    expect(encrypted.jsep).toMatchObject({ type: 'answer', e2ee: true });
  });

  it("lets in a room token from the allowed list, under the participant's own id, and no other", async () => {
    const meetingId = meeting();
    const alice = await sfuTicketFor(meetingId, 'alice', { publishers: 4 });
    const bob = await sfuTicketFor(meetingId, 'bob', { publishers: 4 });
    expect(bob.room).toBe(alice.room);
    expect(bob.roomToken).not.toBe(alice.roomToken);
    expect((await join(alice, 'alice', 'not-on-the-list')).data).toMatchObject({ error_code: 433 });
    expect((await join(alice, 'alice', sfuRoomToken('another-secret', alice.room, 'alice'))).data).toMatchObject({ error_code: 433 });
    expect((await join(alice, 'alice')).data).toMatchObject({ videoroom: 'joined', room: alice.room, id: 'alice' });
    // The second ticket added bob's token to the existing room.
    expect((await join(bob, 'bob')).data).toMatchObject({ videoroom: 'joined', id: 'bob' });
    expect((await participants(one, alice.room)).sort()).toEqual(['alice', 'bob']);
  });

  it('kicks a removed participant and keeps them out', async () => {
    const meetingId = meeting();
    const ticket = await sfuTicketFor(meetingId, 'mallory', { publishers: 4 });
    const inside = await join(ticket, 'mallory');
    expect(inside.data).toMatchObject({ videoroom: 'joined' });
    await revokeSfuAccess(meetingId, 'mallory');
    await inside.socket.nextPushed((message) => message.plugindata?.data.leaving === 'ok' || message.janus === 'detached' || message.janus === 'hangup');
    expect(await participants(one, ticket.room)).toEqual([]);
    expect((await join(ticket, 'mallory')).data).toMatchObject({ error_code: 433 });
    // Twice, or for someone never there: nothing breaks.
    await revokeSfuAccess(meetingId, 'mallory');
    await revokeSfuAccess(meeting(), 'nobody');
  });

  it('is destroyed when the meeting empties, and made again by the next ticket', async () => {
    const meetingId = meeting();
    const ticket = await sfuTicketFor(meetingId, 'last', { publishers: 4 });
    const inside = await join(ticket, 'last');
    await closeSfuRoom(meetingId);
    expect(await roomOnNode(one, ticket.room)).toBeNull();
    await inside.socket.nextPushed((message) => message.plugindata?.data.videoroom === 'destroyed');
    expect(await (await placements()).get(meetingId)).toBeNull();
    const again = await sfuTicketFor(meetingId, 'last', { publishers: 4 });
    expect(await roomOnNode(one, again.room)).toMatchObject({ require_e2ee: true });
  });

  it('stays when the roster is read with only a lost entry in it: a read never destroys the room (issue 45)', async () => {
    const meetingId = meeting();
    const ticket = await sfuTicketFor(meetingId, 'lost', { publishers: 4 });
    const hub = new MemoryHub();
    const long = Date.now() - 10 * 60_000;
    await hub.put(meetingId, { id: 'lost', name: 'Lost', isHost: false, state: 'admitted', seen: long, joinedAt: long, instance: 'gone' });
    expect(await liveRoster(hub, meetingId)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 500)); // what the read started in the background
    expect(await roomOnNode(one, ticket.room)).toMatchObject({ require_e2ee: true });
    await hub.close();
  });

  it('answers service_unavailable when its node does not answer, and lets the meeting go elsewhere', async () => {
    const meetingId = meeting();
    Object.assign(settings, { sfuUrls: `ws://127.0.0.1:${PORTS.nobody + 1}|http://127.0.0.1:${PORTS.nobody}/janus` });
    try {
      const failure = sfuTicketFor(meetingId, 'p', { publishers: 4 });
      await expect(failure).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
      expect(await (await placements()).get(meetingId)).toBeNull();
    } finally {
      Object.assign(settings, { sfuUrls: `${one.wsUrl}|${one.httpUrl}` });
    }
  });

  it('throws typed errors from the HTTP client', async () => {
    const failure = withJanusHttpHandle(one.httpUrl, VIDEOROOM_PLUGIN, { token: () => token(-10) }, async () => undefined);
    await expect(failure).rejects.toEqual(expect.objectContaining({ name: 'JanusHttpError', kind: 'janus', code: 403 }));
    const missing = withJanusHttpHandle(one.httpUrl, VIDEOROOM_PLUGIN, { token: () => token() }, (handle) =>
      handle.request({ request: 'kick', room: 'no-such-room', secret: sfuRoomSecret(SECRET, 'x'), id: 'x' }),
    );
    await expect(missing).rejects.toEqual(expect.objectContaining({ kind: 'plugin', code: 426 }));
    const gone = withJanusHttpHandle(
      `http://127.0.0.1:${PORTS.nobody + 2}/janus`,
      VIDEOROOM_PLUGIN,
      { token: () => token(), timeoutMs: 500 },
      async () => undefined,
    );
    await expect(gone).rejects.toBeInstanceOf(JanusHttpError);
    await expect(gone).rejects.toMatchObject({ kind: 'unreachable' });
  });
});

describe('placement over two nodes', () => {
  const nodes = () => `${one.wsUrl}|${one.httpUrl},${two.wsUrl}|${two.httpUrl}`;
  afterEach(() => Object.assign(settings, { sfuUrls: `${one.wsUrl}|${one.httpUrl}` }));

  it('puts a new meeting on the node with the fewest rooms and keeps each meeting on its node', async () => {
    await closePlacements(); // a fresh in-memory store: no rooms placed by the tests above
    Object.assign(settings, { sfuUrls: nodes() });
    const [first, second] = [meeting(), meeting()];
    const a = await sfuTicketFor(first, 'a', { publishers: 4 });
    const b = await sfuTicketFor(second, 'b', { publishers: 4 });
    expect([a.url, b.url]).toEqual([one.wsUrl, two.wsUrl]);
    expect(await roomOnNode(two, b.room)).toMatchObject({ require_e2ee: true });
    expect(await roomOnNode(one, b.room)).toBeNull();
    // Everyone of a meeting lands on its node.
    expect((await sfuTicketFor(second, 'c', { publishers: 4 })).url).toBe(two.wsUrl);
    expect((await sfuTicketFor(first, 'd', { publishers: 4 })).url).toBe(one.wsUrl);
    // The kick reaches the right node.
    const inside = await join(b, 'b');
    expect(inside.data).toMatchObject({ videoroom: 'joined' });
    await revokeSfuAccess(second, 'b');
    expect(await participants(two, b.room)).toEqual([]);
  });

  it('moves a meeting off a node that answers but refuses, in the same request (issue 45)', async () => {
    await closePlacements();
    // Listed first, so a new meeting is placed on it: Janus's admin endpoint answers every
    // request of the app with a refusal (no admin secret), as a misconfigured node would.
    const refusing = `ws://refusing-${Math.random().toString(36).slice(2)}.invalid|${one.adminUrl}`;
    Object.assign(settings, { sfuUrls: `${refusing},${one.wsUrl}|${one.httpUrl}` });
    const meetingId = meeting();
    const ticket = await sfuTicketFor(meetingId, 'p', { publishers: 4 });
    expect(ticket.url).toBe(one.wsUrl);
    expect(await (await placements()).get(meetingId)).toBe(one.wsUrl);
    expect(await roomOnNode(one, ticket.room)).toMatchObject({ require_e2ee: true });
    // Every node refusing: service_unavailable, and no placement kept.
    Object.assign(settings, { sfuUrls: refusing });
    const other = meeting();
    await expect(sfuTicketFor(other, 'q', { publishers: 4 })).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(await (await placements()).get(other)).toBeNull();
  });

  it.each([
    ['in memory', () => new MemoryPlacementStore()],
    ['in Redis (several app instances)', () => new RedisPlacementStore(new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'))],
  ])('places %s: least loaded, sticky, released, and moved off a node that left the list', async (_label, create: () => PlacementStore) => {
    const store = create();
    const other = create(); // a second app instance
    try {
      const nodeA = `ws://a-${Math.random()}`;
      const nodeB = `ws://b-${Math.random()}`;
      const [m1, m2, m3] = [meeting(), meeting(), meeting()];
      expect(await store.place(m1, [nodeA, nodeB])).toEqual({ node: nodeA, placed: true });
      const same = other instanceof MemoryPlacementStore ? store : other;
      expect(await same.place(m2, [nodeA, nodeB])).toEqual({ node: nodeB, placed: true });
      expect(await same.place(m1, [nodeA, nodeB])).toEqual({ node: nodeA, placed: false });
      expect(await store.load([nodeA, nodeB])).toEqual({ [nodeA]: 1, [nodeB]: 1 });
      expect(await store.release(m1)).toBe(nodeA);
      expect(await store.get(m1)).toBeNull();
      expect(await store.place(m3, [nodeA, nodeB])).toEqual({ node: nodeA, placed: true });
      // nodeB is gone from SFU_URLS: its meeting moves to a listed node.
      expect(await store.place(m2, [nodeA])).toEqual({ node: nodeA, placed: true });
      await Promise.all([store.release(m2), store.release(m3)]);
      expect(await store.load([nodeA, nodeB])).toEqual({ [nodeA]: 0, [nodeB]: 0 });
    } finally {
      await Promise.all([store.close(), other.close()]);
    }
  });
});

// A WebRTC offer as a browser makes one (audio, Opus), enough for Janus to answer.
const OFFER = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'a=msid-semantic: WMS',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'c=IN IP4 0.0.0.0',
  'a=rtcp:9 IN IP4 0.0.0.0',
  'a=ice-ufrag:abcd',
  'a=ice-pwd:abcdefghijklmnopqrstuvwx',
  'a=ice-options:trickle',
  'a=fingerprint:sha-256 FA:D4:4E:7E:A0:4C:3B:ED:53:F4:50:20:8A:44:99:2E:23:24:5B:1B:C1:9F:69:8D:A9:8E:0C:66:11:81:A6:BB',
  'a=setup:actpass',
  'a=mid:0',
  'a=sendonly',
  'a=rtcp-mux',
  'a=rtpmap:111 opus/48000/2',
  'a=ssrc:1111 cname:enclave',
  '',
].join('\r\n');
