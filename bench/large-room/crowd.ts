// The Node participants of the large-room benchmark, in one process of their own (so their CPU
// is measured apart from the browsers'), driven by bench/large-room/run.mjs over IPC. Each command
// gets one reply: { ok: true, ...result } or { ok: false, error }.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sleep } from '../lib/time.mjs';
import { base64urlDecode } from '@/lib/meeting/e2ee/bytes';
import { chatsDue, linksWanted } from './crowd-policy';
import { NodePeer } from './node-peer';
import { DTX_INTERVAL, opusFrames, SAMPLES_PER_FRAME, FRAME_MS, silenceFrame } from './opus-frames';

interface Init {
  baseURL: string;
  meetingId: string;
  secret: string;
  /** 'browsers': Node peers send audio to the browsers only; 'all': to each other too. */
  audioTo: 'browsers' | 'all';
  /**
   * 'sfu': media and the call's messages through the meeting's Janus; data-only connections to the
   * browsers while the call has at most LINKS_UP_TO participants, none above (crowd-policy.ts).
   */
  media: 'mesh' | 'sfu';
  /**
   * How many Node participants talk (the first ones); the others are silent as Opus DTX is, one
   * small frame every 400 ms. Null: all talk.
   */
  speakers: number | null;
}

type Command =
  | ({ cmd: 'init' } & Init)
  | { cmd: 'add'; count: number }
  | { cmd: 'settle'; participants: number; browsers: number; timeoutMs: number }
  | { cmd: 'summary' }
  /** Through the SFU: each Node participant sends a chat to everyone every `everyMs` (0: stop), the room spread over the seconds. */
  | { cmd: 'chat'; everyMs: number }
  /** The last `count` to join leave (a test's key rotation on a leave). */
  | { cmd: 'leave'; count: number }
  | { cmd: 'leave-all' };

const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-crowd-'));
const peers: NodePeer[] = [];
const frames = opusFrames();
const silence = silenceFrame();
let init: Init | null = null;
let tick = 0;
const isBrowser = (name: string) => name.startsWith('Browser');

// 20 ms audio clock for everyone: the same loop a real sender's encoder runs. A silent one sends
// every DTX_INTERVAL-th tick, its RTP clock moving on by the frames it skipped.
const clock = setInterval(() => {
  const frame = frames[tick % frames.length]!;
  const silentSends = tick % DTX_INTERVAL === 0;
  tick += 1;
  const speakers = init?.speakers ?? peers.length;
  peers.forEach((peer, index) => {
    if (index < speakers) peer.sendAudio(frame, SAMPLES_PER_FRAME);
    else if (silentSends) peer.sendAudio(silence, SAMPLES_PER_FRAME * DTX_INTERVAL);
  });
}, FRAME_MS);

// The bench's chats (issue 46): a tick a second, each Node participant's turn every `everyMs`.
const CHAT_TICK_MS = 1000;
let chatTimer: ReturnType<typeof setInterval> | null = null;

function chat(everyMs: number) {
  if (chatTimer) clearInterval(chatTimer);
  chatTimer = null;
  if (everyMs <= 0) return;
  let chatTick = 0;
  const everyTicks = Math.max(1, Math.round(everyMs / CHAT_TICK_MS));
  chatTimer = setInterval(() => {
    for (const index of chatsDue(chatTick, peers.length, everyTicks)) peers[index]?.messages?.chat();
    chatTick += 1;
  }, CHAT_TICK_MS);
}

async function add(count: number) {
  const { baseURL, meetingId, secret, audioTo, media } = init!;
  let last: NodePeer | null = null;
  for (let i = 0; i < count; i += 1) {
    const number = peers.length + 1;
    const peer = new NodePeer({
      baseURL,
      meetingId,
      name: `Node ${number}`,
      secret: base64urlDecode(secret)!,
      dir,
      address: `10.77.${Math.floor(number / 250)}.${(number % 250) + 1}`,
      sendsTo: (remote) => audioTo === 'all' || isBrowser(remote.name),
      canRelink: () => true,
      media,
      // Through the SFU a page keeps a data-only connection to everyone up to LINKS_UP_TO
      // participants and none above: Node participants do the same towards the browsers, and
      // spare each other (nothing the bench reads goes over them).
      linksTo: (remote, participants) => linksWanted(media, isBrowser(remote.name), participants),
      receivesFrom: (remote) => audioTo === 'all' || isBrowser(remote.name),
    });
    await peer.join();
    peers.push(peer);
    last = peer;
    // People arrive one after another: the next one comes once this one's connections are up
    // (or after 20 s), rather than hundreds of handshakes at once on two cores.
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !arrived(peer)) await sleep(100);
  }
  // When the last one called join, on the bench's clock (Date.now()), for the browsers' side of its join time.
  const lastJoinAt = last ? Date.now() - (performance.now() - last.joinStartedAt) : null;
  return { total: peers.length, lastId: last?.self?.id ?? null, lastJoinAt };
}

/** Its connections are up: to everyone on the mesh; through the SFU, its publisher and the links it keeps at this size. */
function arrived(peer: NodePeer) {
  const summary = peer.summary();
  if (!summary.sfu) return summary.connected >= peer.peers.size;
  return summary.sfu.publisher === 'connected' && summary.connected >= summary.wantedLinks;
}

/** Every Node peer connected to every other participant, and each opened audio from every browser. */
function settledPeer(peer: NodePeer, participants: number, browsers: number) {
  const summary = peer.summary();
  const browserIds = [...peer.peers.values()].filter((p) => isBrowser(p.name)).map((p) => p.id);
  const connected = summary.sfu ? summary.sfu.publisher === 'connected' && summary.connected >= summary.wantedLinks : summary.connected >= participants - 1;
  return connected && browserIds.length >= browsers && browserIds.every((id) => summary.audioFrom.includes(id));
}

async function settle(participants: number, browsers: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const last = peers.at(-1);
  let lastReadyMs: number | null = null;
  while (Date.now() < deadline) {
    if (last && lastReadyMs === null && settledPeer(last, participants, browsers)) lastReadyMs = performance.now() - last.joinStartedAt;
    if (peers.every((peer) => settledPeer(peer, participants, browsers))) return { settled: true, lastReadyMs };
    await sleep(100);
  }
  const behind = peers
    .filter((peer) => !settledPeer(peer, participants, browsers))
    .map((peer) => ({ name: peer.self?.name, ...peer.summary(), audioFrom: peer.summary().audioFrom.length }));
  return { settled: false, lastReadyMs, behind };
}

function summary() {
  const all = peers.map((peer) => peer.summary());
  const cpu = process.cpuUsage();
  return {
    peers: all.length,
    connectedLinks: all.reduce((sum, s) => sum + s.connected, 0),
    relinks: all.reduce((sum, s) => sum + s.relinks, 0),
    sentPackets: all.reduce((sum, s) => sum + s.sentPackets, 0),
    sentBytes: all.reduce((sum, s) => sum + s.sentBytes, 0),
    sentStreams: all.reduce((sum, s) => sum + s.sentStreams, 0),
    videoBytes: all.reduce((sum, s) => sum + s.videoBytes, 0),
    // Through the SFU: what Janus sent them, frames opened, publishers and subscribers connected.
    sfuReceivedBytes: all.reduce((sum, s) => sum + (s.sfu?.receivedBytes ?? 0), 0),
    sfuReceivedPackets: all.reduce((sum, s) => sum + (s.sfu?.receivedPackets ?? 0), 0),
    sfuOpened: all.reduce((sum, s) => sum + (s.sfu?.opened ?? 0), 0),
    sfuPublishing: all.filter((s) => s.sfu?.publisher === 'connected').length,
    sfuSubscribed: all.filter((s) => s.sfu?.subscriber === 'connected').length,
    decryptFailures: all.reduce((sum, s) => sum + s.decryptFailures, 0),
    // The sender-key schedule: boxes sent, and keys made by why (ratchets count as `join`).
    senderKeyBoxes: all.reduce((sum, s) => sum + s.senderKeyBoxes, 0),
    ratchets: all.reduce((sum, s) => sum + (s.rotations?.join ?? 0), 0),
    freshKeys: all.reduce((sum, s) => sum + (s.rotations ? s.rotations.leave + s.rotations.interval + s.rotations.room : 0), 0),
    // Signaling: envelopes the Node participants posted, signals their streams brought them.
    signalEnvelopes: all.reduce((sum, s) => sum + s.signalEnvelopes, 0),
    signalEvents: all.reduce((sum, s) => sum + s.signalEvents, 0),
    // Through the SFU: the call's messages (node-messages.ts), summed.
    messages: sumMessages(all.map((s) => s.messages)),
    perPeer: peers.map((peer, i) => ({
      name: peer.self?.name,
      id: all[i]!.id,
      sent: all[i]!.sentPackets,
      sfu: all[i]!.sfu,
      stream: all[i]!.stream,
      // How it sees the browsers' keys: where a join's key exchange stops.
      browserKeys: Object.entries(all[i]!.keysOf)
        .filter(([name]) => isBrowser(name))
        .map(([name, keys]) => `${name}:${keys}`)
        .join(' '),
    })),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

function sumMessages(list: ReturnType<NodePeer['summary']>['messages'][]) {
  const total = { sent: 0, opened: 0, dropped: 0, chatsSent: 0, chatsOpened: 0, hearing: 0, drops: {} as Record<string, number> };
  for (const counts of list) {
    if (!counts) continue;
    total.sent += counts.sent;
    total.opened += counts.opened;
    total.dropped += counts.dropped;
    total.chatsSent += counts.chatsSent;
    total.chatsOpened += counts.chatsOpened;
    total.hearing += counts.hearing;
    for (const [reason, count] of Object.entries(counts.drops)) total.drops[reason] = (total.drops[reason] ?? 0) + count;
  }
  return total;
}

async function handle(command: Command) {
  switch (command.cmd) {
    case 'init':
      init = command;
      return {};
    case 'add':
      return add(command.count);
    case 'settle':
      return settle(command.participants, command.browsers, command.timeoutMs);
    case 'summary':
      return summary();
    case 'chat':
      chat(command.everyMs);
      return {};
    case 'leave':
      await Promise.all(peers.splice(-command.count).map((peer) => peer.leave()));
      return { total: peers.length };
    case 'leave-all':
      chat(0);
      await Promise.all(peers.map((peer) => peer.leave()));
      peers.length = 0;
      return {};
  }
}

process.on('message', (command: Command & { id: number }) => {
  handle(command).then(
    (result) => process.send!({ id: command.id, ok: true, ...result }),
    (error: Error) => process.send!({ id: command.id, ok: false, error: error.stack ?? String(error) }),
  );
});
process.on('disconnect', () => {
  clearInterval(clock);
  chat(0);
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
