// The test probe: what the end-to-end tests and bench/join/ read from a running meeting, on
// `window.enclaveProbe`. Attached only when the server runs with MEETING_TEST_PROBE=1 (the e2e
// server and the benchmark set it); production pages never carry it, so no script on the page
// finds the meeting's keys or connections on window.
import type { HandoffCode } from '@/lib/meeting/e2ee/handoff';
import type { SafetyCode } from '@/lib/meeting/e2ee/safety-code';
import type { PeerCryptoStats } from './keys/meeting-crypto';
import type { FrameSample } from './frames/e2ee-worker-protocol';
import type { FramePath } from './frames/frame-backends';
import type { HostAction, SessionState } from './call/machine';
import { linkStats, type LinkReport } from './links/monitors';
import { backgroundStats } from './background/registry';
import type { BackgroundStats } from './background/protocol';
import type { Slot } from './links/slots';
import type { TransferView } from './files/transfer-view';
import { FILES } from './files/files-feature';
import { POLLS } from './polls/polls-feature';
import type { PollView } from './polls/polls';
import { WHITEBOARD } from './whiteboard/whiteboard-feature';
import type { BoardView } from './whiteboard/board-sync';
import { BREAKOUT } from './breakout/breakout-feature';
import type { BreakoutState } from './breakout/breakout-rules';
import { CAPTIONS } from './captions/captions-feature';
import type { CaptionsView } from './captions/captions';
import type { TranscriptLine } from './captions/caption-book';
import type { EngineAvailability } from './captions/engine';
import { StandInEngine } from './captions/stand-in-engine';
import { WebSpeechEngine } from './captions/web-speech-engine';
import type { MeetingSession } from './call/session';

export interface MeetingProbe {
  framePath: FramePath;
  /** The join token, to prove the server refuses it after a removal. */
  token: string;
  getState(): SessionState;
  hostAction(action: HostAction, target: string): Promise<number>;
  /** Per-peer counters from getStats(). */
  stats(): Promise<Record<string, LinkReport>>;
  /** Frames encrypted, decrypted, withheld and refused, per peer. */
  encryptionStats(): Promise<Record<string, PeerCryptoStats>>;
  safetyCode(peerId: string): Promise<SafetyCode | null>;
  handoffCode(peerId: string): HandoffCode | null;
  /** The next `count` frames our senders encrypt, as (clear, sealed) byte pairs after the clear prefix. */
  sampleFrames(count: number): Promise<FrameSample[]>;
  /** Fail-closed sending: withhold every frame key, or give them back. */
  withholdKeys(withhold: boolean): Promise<void>;
  /** Offers per connection, so tests can prove that screen sharing needs no renegotiation. */
  negotiations(): Record<string, number>;
  /** How much each connection's camera sender divides the capture's size now (media/encoding-policy.ts warm-up). */
  cameraScale(): Record<string, number | null>;
  /** What each connection's senders carry now, so tests can see a device switch reach every link. */
  senderTracks(): Record<string, Record<Slot, { id: string; label: string; enabled: boolean } | null>>;
  /** The local track of a slot, to end it as an unplugged device would. */
  localTrack(slot: Slot): MediaStreamTrack | null;
  /** The file transfers as the screen shows them (their code loads on the first call). */
  fileTransfers(): Promise<TransferView[]>;
  /**
   * Offers `size` random bytes made in the page as a file, and answers their SHA-256: Firefox,
   * driven by puppeteer, cannot be handed a file through its chooser here.
   */
  sendRandomFile(name: string, size: number, to: string): Promise<string>;
  /** SHA-256 of a received file's bytes in memory, for a browser whose downloads a test cannot read. */
  receivedSha256(key: string): Promise<string | null>;
  /**
   * The polls as the screen shows them, how many poll messages were dropped as malformed or not allowed (their code loads on
   * the first call), and what the page holds of the ballots: per poll the keys it counts under (voters, or tokens for an
   * anonymous poll) and how many voters it relayed (polls.ts).
   */
  polls(): Promise<{ views: PollView[]; dropped: number; ballots: { keys: Record<string, string[]>; relayed: number } }>;
  /**
   * Sends any message, unchecked, over the sealed main channel to a peer: a hostile peer's file
   * offers, poll ballots, strokes or breakout orders as every feature's receiver meets them.
   */
  sendRawMessage(peerId: string, message: Record<string, unknown>): boolean;
  /** The whiteboard's strokes as this page holds them, and how many peer messages it refused (its code loads on the first call). */
  whiteboard(): Promise<BoardView>;
  /** The captions as this page holds them, and how many caption messages it dropped (their code loads on the first call). */
  captions(): Promise<{ view: CaptionsView; transcript: readonly TranscriptLine[]; dropped: number }>;
  /** Puts the test's stand-in recogniser in place of the browser's (stand-in-engine.ts): it answers `availability` and says what captionSay gives it. */
  captionStandIn(availability: EngineAvailability): Promise<void>;
  /** The stand-in "hears" a line: partial words, then the final; false when it is not listening (never started). */
  captionSay(text: string): boolean;
  /** How often the stand-in was started. */
  captionStarts(): number;
  /** What the browser's own on-device recogniser answers for a language (web-speech-engine.ts), starting nothing. */
  webSpeechAvailability(language: string): Promise<EngineAvailability>;
  /** What the camera's background effect costs now (null when off). */
  backgroundStats(): BackgroundStats | null;
  /** Where our media goes now: peer to peer, or through the SFU (issue 38). */
  mediaRoute(): 'mesh' | 'sfu';
  /** The breakout rooms as this page holds them (breakout/breakout-rules.ts). */
  breakout(): BreakoutState;
  /**
   * Bytes and frames on the SFU's connections: sent on the publishing one (and per simulcast
   * layer, by rid), received per participant.
   */
  sfuStats(): Promise<SfuStats>;
  /** As the tile's visibility observer does: whether we show this peer's camera. */
  showPeer(peerId: string, visible: boolean): void;
  /** Our sender key's generation, and the newest of each other sender's we hold. */
  senderKeys(): Promise<{ own: number | null; received: Record<string, number> }>;
  /** Subscribes through the SFU to a publisher of another breakout room, as a curious page could: its frames must not open here. */
  sfuPeek(participantId: string): void;
  /** Seals our frames through the SFU with a key we hold of another sender (its newest box's, or that generation's), as a forger would (signed with our own proof key): false without one. */
  sfuImpersonate(participantId: string, generation?: number): Promise<boolean>;
  /** The newest sender key each participant handed us through the SFU, raw: a test tries it (and its ratchets) on ciphertext from before we came. */
  sfuHeldKeys(): Promise<Record<string, { generation: number; key: number[] }>>;
  /**
   * The call's messages through the SFU (sfu/sfu-data.ts): sealed and sent, opened, dropped (and
   * why), and who hears us there now. Null before the SFU side is loaded.
   */
  sfuMessages(): SfuMessageCounts | null;
  /** Sends through the SFU a chat in another participant's name, under the key it handed us and signed with ours, as a forging participant would: every receiver must drop it (`forged`). */
  sfuForgeMessage(participantId: string, text: string): Promise<boolean>;
}

type SfuMessageCounts = { queued: number; sent: number; opening: number; opened: number; dropped: number; drops: Record<string, number>; hearing: string[] };

declare global {
  interface Window {
    enclaveProbe?: MeetingProbe;
  }
}

export function meetingProbe(session: MeetingSession): MeetingProbe {
  let standIn: StandInEngine | null = null;
  const keys = () => session.inspect().keys;
  const links = () => session.inspect().links;
  return {
    framePath: session.framePath,
    token: session.token,
    getState: () => session.getState(),
    hostAction: (action, target) => session.hostAction(action, target),
    stats: () => linkStats(links()),
    encryptionStats: () => keys()?.stats() ?? Promise.resolve({}),
    safetyCode: (peerId) => session.safetyCode(peerId),
    handoffCode: (peerId) => session.handoffCode(peerId),
    sampleFrames: (count) => keys()?.frames.sampleFrames(count) ?? Promise.resolve([]),
    withholdKeys: (withhold) => keys()?.frames.withhold(withhold) ?? Promise.resolve(),
    negotiations: () => Object.fromEntries([...links().entries()].map(([id, link]) => [id, link.negotiations])),
    cameraScale: () =>
      Object.fromEntries(
        [...links().entries()].map(([id, link]) => [id, link.sender('camera')?.getParameters().encodings?.[0]?.scaleResolutionDownBy ?? null]),
      ),
    senderTracks: () =>
      Object.fromEntries(
        [...links().entries()].map(([id, link]) => {
          const carried = (slot: Slot) => {
            const track = link.sender(slot)?.track;
            return track ? { id: track.id, label: track.label, enabled: track.enabled } : null;
          };
          return [id, { audio: carried('audio'), camera: carried('camera'), screen: carried('screen') }];
        }),
      ),
    localTrack: (slot) => session.localTrack(slot),
    fileTransfers: async () => (await session.features.use(FILES).load()).getSnapshot(),
    sendRandomFile: async (name, size, to) => {
      const bytes = new Uint8Array(size);
      // getRandomValues fills at most 64 KiB at a time.
      for (let at = 0; at < size; at += 65536) crypto.getRandomValues(bytes.subarray(at, at + 65536));
      const files = await session.features.use(FILES).load();
      const result = await files.sendFile(new File([bytes], name), to);
      if (result !== 'sent') throw new Error(`sendFile: ${result}`);
      const { sha256Hex } = await import('./files/file-crypto');
      return sha256Hex(bytes);
    },
    receivedSha256: async (key) => {
      const bytes = (await session.features.use(FILES).load()).receivedBytes(key);
      if (!bytes) return null;
      const { sha256Hex } = await import('./files/file-crypto');
      return sha256Hex(bytes);
    },
    polls: async () => {
      const polls = await session.features.use(POLLS).load();
      return { views: polls.getSnapshot(), dropped: polls.dropped, ballots: polls.inspect() };
    },
    sendRawMessage: (peerId, message) => links().get(peerId)?.send(message) ?? false,
    whiteboard: async () => (await session.features.use(WHITEBOARD).load()).view(),
    captions: async () => {
      const captions = await session.features.use(CAPTIONS).load();
      return { view: captions.getSnapshot(), transcript: [...captions.transcript()], dropped: captions.dropped };
    },
    captionStandIn: async (availability) => {
      standIn = new StandInEngine(availability);
      session.features.use(CAPTIONS).useEngine(standIn);
    },
    captionSay: (text) => standIn?.say(text) ?? false,
    captionStarts: () => standIn?.starts ?? 0,
    webSpeechAvailability: (language) => new WebSpeechEngine().availability(language),
    backgroundStats: () => backgroundStats(session.localTrack('camera')),
    mediaRoute: () => session.getState().mediaRoute,
    breakout: () => session.features.use(BREAKOUT).getState(),
    sfuStats: () => sfuStats(session.inspect().sfu.side?.connections() ?? []),
    senderKeys: async () => (await session.inspect().sfu.side?.senderKeys()) ?? { own: null, received: {} },
    showPeer: (peerId, visible) => session.setPeerVisible(peerId, visible),
    sfuPeek: (participantId) => session.inspect().sfu.side?.peek(participantId),
    sfuImpersonate: async (participantId, generation) => (await session.inspect().sfu.side?.impersonate(participantId, generation)) ?? false,
    sfuHeldKeys: async () => (await session.inspect().sfu.side?.heldKeys()) ?? {},
    sfuMessages: () => {
      const data = session.inspect().sfu.side?.data;
      return data ? { ...data.counts, drops: { ...data.drops }, hearing: data.hearing() } : null;
    },
    sfuForgeMessage: async (participantId, text) =>
      (await session.inspect().sfu.side?.forgeMessage(participantId, { t: 'chat', id: crypto.randomUUID(), text, at: Date.now() })) ?? false,
  };
}

type SfuStats = {
  sentBytes: number;
  framesSent: number;
  /** The camera's simulcast layers as the encoder sends them now (it may scale or drop the top ones). */
  layers: Record<string, { frames: number; height: number; active: boolean }>;
  received: Record<string, { kind: string; bytes: number; frames: number; height: number }>;
};

/** outbound-rtp and inbound-rtp of the SFU's connections; inbound by the mid Janus gave each stream. */
async function sfuStats(connections: RTCPeerConnection[]): Promise<SfuStats> {
  const result: SfuStats = { sentBytes: 0, framesSent: 0, layers: {}, received: {} };
  for (const pc of connections) {
    for (const report of (await pc.getStats()).values()) {
      if (report.type === 'outbound-rtp') {
        result.sentBytes += report.bytesSent ?? 0;
        result.framesSent += report.framesSent ?? 0;
        if (report.rid) result.layers[report.rid] = { frames: report.framesSent ?? 0, height: report.frameHeight ?? 0, active: report.active !== false };
      } else if (report.type === 'inbound-rtp') {
        const entry = (result.received[report.mid ?? report.id] ??= { kind: report.kind, bytes: 0, frames: 0, height: 0 });
        entry.bytes += report.bytesReceived ?? 0;
        entry.frames += report.framesDecoded ?? 0;
        entry.height = Math.max(entry.height, report.frameHeight ?? 0);
      }
    }
  }
  return result;
}

/** Puts the probe on window for this session; the answer takes it off again. */
export function attachProbe(session: MeetingSession): () => void {
  const probe = meetingProbe(session);
  window.enclaveProbe = probe;
  return () => {
    if (window.enclaveProbe === probe) delete window.enclaveProbe;
  };
}
