// Issue 44 ("also"): against a real Janus (tests/support/janus.mjs, from deploy/janus), media that
// is not end-to-end encrypted never gets a room to go to, and a participant the host removes
// stops receiving through its existing subscription within a second, under one time-out.
// Real WebRTC on the test's side: node-datachannel (libdatachannel), as bench:large-room uses.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nodeDataChannel from 'node-datachannel';
import { config } from '@/lib/environment';
import { withJanusHttpHandle } from '@/lib/sfu/janus-http';
import { closePlacements } from '@/lib/sfu/store';
import { BEST_EFFORT_TIMEOUT_MS, revokeSfuAccess, sfuTicketFor } from '@/lib/sfu/ticket';
import { janusToken, sfuRoomId, sfuRoomSecret, VIDEOROOM_PLUGIN } from '@/lib/sfu/tokens';
import type { SfuTicket } from '@/lib/meeting/protocol';
import { videoRoomHandle, type JanusSocket } from '../support/janus-client';
import { startJanus } from '../support/janus.mjs';
import { portBlock } from '../support/test-ports';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const settings = config as Mutable<typeof config>;
const { PeerConnection, Audio, RtcpReceivingSession } = nodeDataChannel;
type PeerConnection = InstanceType<typeof PeerConnection>;

// This file's ports (tests/support/test-ports.ts): the node's APIs at +0, its media from +10.
const PORTS = { api: portBlock('sfu-janus-guards'), rtp: portBlock('sfu-janus-guards') + 10 };
const SECRET = 'sfu-guards-test-secret';
let janus: Awaited<ReturnType<typeof startJanus>>;
const sockets: JanusSocket[] = [];
const connections: PeerConnection[] = [];
const tracks: { close(): void }[] = [];
const timers: ReturnType<typeof setInterval>[] = [];

beforeAll(async () => {
  janus = await startJanus({ basePort: PORTS.api, rtpPorts: `${PORTS.rtp}-${PORTS.rtp + 7}`, secret: SECRET });
  Object.assign(settings, { sfuUrls: `${janus.wsUrl}|${janus.httpUrl}`, sfuSecret: SECRET, redisUrl: undefined });
}, 30_000);
afterEach(() => timers.splice(0).forEach(clearInterval));
afterAll(async () => {
  // libdatachannel's threads stop only with cleanup() (without it Jest never exits), and
  // cleanup() with a track still open crashed the process: tracks first, then connections.
  for (const track of tracks) track.close();
  for (const pc of connections) pc.close();
  await until(() => connections.every((pc) => pc.state() === 'closed'), 5_000).catch(() => undefined);
  await sleep(500);
  nodeDataChannel.cleanup();
  await Promise.all(sockets.map((socket) => socket.close()));
  await closePlacements();
  await janus?.stop();
  Object.assign(settings, { sfuUrls: undefined, sfuSecret: undefined });
});

const meeting = () => `guard-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const appToken = () => janusToken(SECRET, Date.now() + 60_000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function handleOn(ticket: SfuTicket) {
  const opened = await videoRoomHandle(ticket.url, ticket.token);
  sockets.push(opened.socket);
  return opened;
}

/** libdatachannel's description once its candidates are in it (loopback: at once). */
async function gathered(pc: PeerConnection): Promise<string> {
  for (let i = 0; i < 150 && pc.gatheringState() !== 'complete'; i += 1) await sleep(20);
  return pc.localDescription()!.sdp;
}

function connection(name: string): PeerConnection {
  const pc = new PeerConnection(name, { iceServers: [], disableAutoNegotiation: true });
  connections.push(pc);
  return pc;
}

/** An Opus offer (sendonly) from a real peer connection, and the connection. */
async function audioOffer(name: string) {
  const pc = connection(name);
  const audio = new Audio('0', 'SendOnly');
  audio.addOpusCodec(111);
  const ssrc = 1000 + Math.floor(Math.random() * 1e6);
  audio.addSSRC(ssrc, name);
  const track = pc.addTrack(audio);
  tracks.push(track);
  track.setMediaHandler(new RtcpReceivingSession());
  pc.setLocalDescription('offer');
  return { pc, track, ssrc, sdp: await gathered(pc) };
}

/** Joins as `id` and publishes audio (e2ee flagged) that keeps flowing: 50 packets a second of random bytes. */
async function publisher(ticket: SfuTicket, id: string) {
  const { socket, handleId } = await handleOn(ticket);
  const joined = await socket.message(ticket.token, handleId, { request: 'join', ptype: 'publisher', room: ticket.room, id, token: ticket.roomToken });
  const privateId = joined.plugindata!.data.private_id as number;
  const { pc, track, ssrc, sdp } = await audioOffer(id);
  const answer = await socket.message(
    ticket.token,
    handleId,
    { request: 'publish', descriptions: [{ mid: '0', description: 'audio' }] },
    { type: 'offer', sdp, e2ee: true },
  );
  pc.setRemoteDescription((answer.jsep as { sdp: string }).sdp, 'answer');
  // A feed can be subscribed to once its media is up.
  await until(() => track.isOpen());
  let sequence = 0;
  timers.push(
    setInterval(() => {
      if (!track.isOpen()) return;
      const packet = Buffer.alloc(12 + 60);
      packet[0] = 0x80;
      packet[1] = 111;
      packet.writeUInt16BE(sequence++ & 0xffff, 2);
      packet.writeUInt32BE((sequence * 960) >>> 0, 4);
      packet.writeUInt32BE(ssrc, 8);
      packet.set(Buffer.from(Array.from({ length: 60 }, () => Math.floor(Math.random() * 256))), 12);
      track.sendMessageBinary(packet);
    }, 20),
  );
  return { socket, handleId, privateId };
}

/** A subscription to `feed` on the publisher's own session, with its private_id; counts the RTP it receives. */
async function subscription(ticket: SfuTicket, socket: JanusSocket, privateId: number, feed: string) {
  const attached = await socket.attach(ticket.token);
  const handleId = attached.data!.id!;
  const offer = await socket.message(ticket.token, handleId, {
    request: 'join',
    ptype: 'subscriber',
    room: ticket.room,
    streams: [{ feed }],
    private_id: privateId,
    token: ticket.roomToken,
  });
  if (!offer.jsep) throw new Error(`no subscription: ${JSON.stringify(offer.plugindata?.data)}`);
  const pc = connection(`sub-${feed}`);
  const received = { packets: 0 };
  pc.onTrack((track) => {
    tracks.push(track);
    track.setMediaHandler(new RtcpReceivingSession());
    track.onMessage((message) => {
      // RTP only (RTCP's payload types are 64–95 after the marker bit).
      const type = message[1]! & 0x7f;
      if (!(type >= 64 && type <= 95)) received.packets += 1;
    });
  });
  pc.setRemoteDescription((offer.jsep as { sdp: string }).sdp, 'offer');
  pc.setLocalDescription('answer');
  const started = await socket.message(ticket.token, handleId, { request: 'start' }, { type: 'answer', sdp: await gathered(pc), e2ee: true });
  expect(started.plugindata?.data).toMatchObject({ started: 'ok' });
  return { handleId, received };
}

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

/** The room's entry in the node's list (its admin_key lists private rooms too). */
async function listed(room: string) {
  return withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token: appToken }, async (handle) => {
    const { list } = await handle.request<{ list: Record<string, unknown>[] }>({ request: 'list', admin_key: SECRET });
    return list.find((entry) => entry.room === room) ?? null;
  });
}

/** A room made by hand under the meeting's derived name, as a static or stale room would be. */
async function roomByHand(meetingId: string, extra: Record<string, unknown>) {
  const room = sfuRoomId(SECRET, meetingId);
  await withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token: appToken }, (handle) =>
    handle.request({ request: 'create', room, admin_key: SECRET, secret: sfuRoomSecret(SECRET, room), permanent: false, ...extra }),
  );
  return room;
}

/** A publisher's join, then an offer that is not flagged e2ee through `request`: Janus's answer. */
async function clearOffer(ticket: SfuTicket, id: string, request: 'publish' | 'configure') {
  const { socket, handleId } = await handleOn(ticket);
  const joined = await socket.message(ticket.token, handleId, { request: 'join', ptype: 'publisher', room: ticket.room, id, token: ticket.roomToken });
  expect(joined.plugindata?.data).toMatchObject({ videoroom: 'joined', id });
  const { sdp } = await audioOffer(id);
  const answer = await socket.message(ticket.token, handleId, { request }, { type: 'offer', sdp });
  return { data: answer.plugindata?.data, jsep: answer.jsep };
}

describe('media that is not end-to-end encrypted', () => {
  it('is refused from a publisher that joined first, whether it publishes or configures', async () => {
    const meetingId = meeting();
    for (const request of ['publish', 'configure'] as const) {
      const ticket = await sfuTicketFor(meetingId, `clear-${request}`, { publishers: 4 });
      const refused = await clearOffer(ticket, `clear-${request}`, request);
      expect(refused.data).toMatchObject({ error_code: 433, error: 'Room requires end-to-end encrypted media' });
      expect(refused.jsep).toBeUndefined();
    }
  });

  it('finds no room: one that exists without require_e2ee is replaced before a ticket names it', async () => {
    const meetingId = meeting();
    const room = await roomByHand(meetingId, { require_e2ee: false, require_pvtid: false, is_private: false });
    expect(await listed(room)).toMatchObject({ require_e2ee: false });
    const ticket = await sfuTicketFor(meetingId, 'after-stale', { publishers: 4 });
    expect(ticket.room).toBe(room);
    expect(await listed(room)).toMatchObject({ require_e2ee: true, require_pvtid: true, is_private: true });
    expect((await clearOffer(ticket, 'after-stale', 'publish')).data).toMatchObject({ error_code: 433 });
  });

  it('gets no ticket for a room the app cannot replace (another secret holds it)', async () => {
    const meetingId = meeting();
    const room = sfuRoomId(SECRET, meetingId);
    await withJanusHttpHandle(janus.httpUrl, VIDEOROOM_PLUGIN, { token: appToken }, (handle) =>
      handle.request({ request: 'create', room, admin_key: SECRET, secret: 'not-the-apps', require_e2ee: false }),
    );
    await expect(sfuTicketFor(meetingId, 'nobody', { publishers: 4 })).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(await listed(room)).toMatchObject({ require_e2ee: false });
  });
});

describe('a participant the host removes', () => {
  it('stops receiving through the subscription it had, within a second, while the others still receive', async () => {
    const meetingId = meeting();
    const [adaTicket, malloryTicket, beaTicket] = [
      await sfuTicketFor(meetingId, 'ada', { publishers: 4 }),
      await sfuTicketFor(meetingId, 'mallory', { publishers: 4 }),
      await sfuTicketFor(meetingId, 'bea', { publishers: 4 }),
    ];
    await publisher(adaTicket, 'ada');
    const mallory = await publisher(malloryTicket, 'mallory');
    const bea = await publisher(beaTicket, 'bea');
    const watching = await subscription(malloryTicket, mallory.socket, mallory.privateId, 'ada');
    const other = await subscription(beaTicket, bea.socket, bea.privateId, 'ada');
    await until(() => watching.received.packets > 25 && other.received.packets > 25);

    const started = Date.now();
    await revokeSfuAccess(meetingId, 'mallory');
    const took = Date.now() - started;
    expect(took).toBeLessThan(BEST_EFFORT_TIMEOUT_MS);
    // Whatever was on the wire lands; then nothing more, for a second and a half.
    await sleep(300);
    const cut = watching.received.packets;
    const before = other.received.packets;
    await sleep(1_500);
    expect(watching.received.packets).toBe(cut);
    expect(other.received.packets - before).toBeGreaterThan(40);
    console.log(`removal: revoke took ${took} ms; the removed subscription stopped at ${cut} packets`);

    // Its subscription takes no request any more, and no new one opens with its private_id.
    const configure = await mallory.socket.message(malloryTicket.token, watching.handleId, { request: 'configure', streams: [{ mid: '0', send: true }] });
    expect(configure.plugindata?.data).toMatchObject({ error_code: 433 });
    const attached = await mallory.socket.attach(malloryTicket.token);
    const again = await mallory.socket.message(malloryTicket.token, attached.data!.id!, {
      request: 'join',
      ptype: 'subscriber',
      room: malloryTicket.room,
      streams: [{ feed: 'ada' }],
      private_id: mallory.privateId,
      token: malloryTicket.roomToken,
    });
    expect(again.plugindata?.data.error_code).toEqual(expect.any(Number));
  });

  it("is revoked under one time-out, however slowly each of Janus's answers comes", async () => {
    const meetingId = meeting();
    await sfuTicketFor(meetingId, 'slowpoke', { publishers: 4 });
    // Janus behind a link that takes 700 ms per request: five requests, each under the old per-request 2 s.
    const server = createServer((request, response) => {
      const body: Buffer[] = [];
      request.on('data', (chunk: Buffer) => body.push(chunk));
      request.on('end', () => {
        void sleep(700)
          .then(() =>
            fetch(new URL(request.url!, janus.httpUrl), { method: request.method, body: request.method === 'POST' ? Buffer.concat(body) : undefined }),
          )
          .then(async (answer) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()))
          .catch(() => response.destroy());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    Object.assign(settings, { sfuUrls: `${janus.wsUrl}|http://127.0.0.1:${port}/janus` });
    try {
      const started = Date.now();
      await revokeSfuAccess(meetingId, 'slowpoke');
      expect(Date.now() - started).toBeLessThan(BEST_EFFORT_TIMEOUT_MS + 500);
    } finally {
      Object.assign(settings, { sfuUrls: `${janus.wsUrl}|${janus.httpUrl}` });
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
