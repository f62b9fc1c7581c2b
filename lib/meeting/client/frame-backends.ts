// Where frames are encrypted (E2EE.md "Browser APIs"): on the page with Chromium's
// createEncodedStreams(), or in a worker with the standard RTCRtpScriptTransform. MeetingCrypto
// derives the keys; a backend holds the SFrame keys, attaches the transforms and counts frames.
import { FrameDecryptor, FrameEncryptor } from '@/lib/meeting/e2ee/frame';
import { deriveSFrameKey } from '@/lib/meeting/e2ee/sframe';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { TransformOptions, WorkerCommand } from './e2ee-worker-protocol';
import { newCounters, type FrameCounters } from './frame-counters';
import { decryptReceiver, encryptSender, type FrameTap } from './frame-transform';
import type { Slot } from './peer';

export interface PeerCryptoStats {
  sent: FrameCounters;
  received: FrameCounters;
}

export interface FrameBackend {
  /** RTCPeerConnection options this path needs. */
  readonly rtcConfig: RTCConfiguration;
  attachSender(peerId: string, slot: Slot, sender: RTCRtpSender): void;
  /** Must run in the task that creates the receiver: a later transform is bypassed (E2EE.md). */
  attachReceiver(peerId: string, slot: Slot, receiver: RTCRtpReceiver): void;
  /** `keyId` names one key for good: the same id never gets a second encryptor (nonces from 0). */
  setSendKey(peerId: string, slot: Slot, keyId: string, kid: bigint, baseKey: Bytes): Promise<void>;
  setReceiveKey(peerId: string, slot: Slot, kid: bigint, baseKey: Bytes): Promise<void>;
  withhold(withhold: boolean): void;
  stats(): Promise<Record<string, PeerCryptoStats>>;
  /** Tests: the next frames a sender encrypts (the page path only). */
  tap: FrameTap | null;
}

export type FramePath = 'streams' | 'script';

/** Which path this browser has; createEncodedStreams first (the one Chromium runs reliably). */
export function framePath(prefer?: FramePath): FramePath | null {
  const streams = typeof RTCRtpSender !== 'undefined' && 'createEncodedStreams' in RTCRtpSender.prototype;
  const script = typeof RTCRtpScriptTransform !== 'undefined';
  if (prefer === 'script' && script) return 'script';
  return streams ? 'streams' : script ? 'script' : null;
}

const kindOf = (slot: Slot) => (slot === 'audio' ? 'audio' : 'video');
const pathOf = (peerId: string, slot: Slot) => `${peerId}/${slot}`;

/** Counters per peer, made on first use. */
class CounterBook {
  private readonly peers = new Map<string, PeerCryptoStats>();
  of(peerId: string): PeerCryptoStats {
    let entry = this.peers.get(peerId);
    if (!entry) this.peers.set(peerId, (entry = { sent: newCounters(), received: newCounters() }));
    return entry;
  }
  snapshot(): Record<string, PeerCryptoStats> {
    return structuredClone(Object.fromEntries(this.peers));
  }
}

/** Chromium: createEncodedStreams() on the page, with `encodedInsertableStreams` (fail-closed). */
export class StreamsBackend implements FrameBackend {
  readonly rtcConfig = { encodedInsertableStreams: true } as RTCConfiguration;
  tap: FrameTap | null = null;
  private withholding = false;
  private readonly encryptors = new Map<string, FrameEncryptor>();
  private readonly current = new Map<string, string>();
  private readonly decryptors = new Map<string, FrameDecryptor>();
  private readonly counters = new CounterBook();

  attachSender(peerId: string, slot: Slot, sender: RTCRtpSender) {
    const path = pathOf(peerId, slot);
    encryptSender(
      sender,
      kindOf(slot),
      () => (this.withholding ? null : (this.encryptors.get(this.current.get(path) ?? '') ?? null)),
      this.counters.of(peerId).sent,
      () => this.tap,
    );
  }

  attachReceiver(peerId: string, slot: Slot, receiver: RTCRtpReceiver) {
    decryptReceiver(receiver, kindOf(slot), this.decryptor(peerId, slot), this.counters.of(peerId).received);
  }

  async setSendKey(peerId: string, slot: Slot, keyId: string, kid: bigint, baseKey: Bytes) {
    if (!this.encryptors.has(keyId)) this.encryptors.set(keyId, new FrameEncryptor(await deriveSFrameKey(baseKey, kid)));
    this.current.set(pathOf(peerId, slot), keyId);
  }

  async setReceiveKey(peerId: string, slot: Slot, kid: bigint, baseKey: Bytes) {
    this.decryptor(peerId, slot).setKey(await deriveSFrameKey(baseKey, kid));
  }

  withhold(withhold: boolean) {
    this.withholding = withhold;
  }

  async stats() {
    return this.counters.snapshot();
  }

  private decryptor(peerId: string, slot: Slot) {
    let decryptor = this.decryptors.get(pathOf(peerId, slot));
    if (!decryptor) this.decryptors.set(pathOf(peerId, slot), (decryptor = new FrameDecryptor()));
    return decryptor;
  }
}

/** The standard path: RTCRtpScriptTransform, with keys, counters and nonces in e2ee-worker.ts. */
export class ScriptBackend implements FrameBackend {
  readonly rtcConfig: RTCConfiguration = {};
  tap: FrameTap | null = null;
  private readonly worker = new Worker(new URL('./e2ee-worker.ts', import.meta.url), { type: 'module' });
  private requests = 0;

  attachSender(peerId: string, slot: Slot, sender: RTCRtpSender) {
    sender.transform = new RTCRtpScriptTransform(this.worker, { peerId, slot, side: 'send', kind: kindOf(slot) } satisfies TransformOptions);
  }

  attachReceiver(peerId: string, slot: Slot, receiver: RTCRtpReceiver) {
    if (receiver.transform) return;
    receiver.transform = new RTCRtpScriptTransform(this.worker, { peerId, slot, side: 'receive', kind: kindOf(slot) } satisfies TransformOptions);
  }

  async setSendKey(peerId: string, slot: Slot, keyId: string, kid: bigint, baseKey: Bytes) {
    this.post({ type: 'send-key', peerId, slot, keyId, kid: kid.toString(), baseKey });
  }

  async setReceiveKey(peerId: string, slot: Slot, kid: bigint, baseKey: Bytes) {
    this.post({ type: 'receive-key', peerId, slot, kid: kid.toString(), baseKey });
  }

  withhold(withhold: boolean) {
    this.post({ type: 'withhold', withhold });
  }

  stats(): Promise<Record<string, PeerCryptoStats>> {
    const requestId = ++this.requests;
    return new Promise((resolve) => {
      const onMessage = (event: MessageEvent<{ type: string; requestId: number; stats: Record<string, PeerCryptoStats> }>) => {
        if (event.data?.type !== 'stats' || event.data.requestId !== requestId) return;
        this.worker.removeEventListener('message', onMessage);
        resolve(event.data.stats);
      };
      this.worker.addEventListener('message', onMessage);
      this.post({ type: 'stats', requestId });
    });
  }

  private post(command: WorkerCommand) {
    this.worker.postMessage(command);
  }
}

export function createFrameBackend(path: FramePath): FrameBackend {
  return path === 'script' ? new ScriptBackend() : new StreamsBackend();
}
