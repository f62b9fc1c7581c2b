// Where frames are encrypted (E2EE.md "Browser APIs"): on the page with Chromium's
// createEncodedStreams(), or in a worker with the standard RTCRtpScriptTransform. MeetingCrypto
// derives the keys; a backend holds the SFrame keys, attaches the transforms and counts frames.
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { TransformOptions, WorkerCommand } from './e2ee-worker-protocol';
import {
  decryptingTransform,
  encryptingTransform,
  FrameKeyring,
  type EncodedFrame,
  type FrameTap,
  type PeerCryptoStats,
} from './frame-transform';
import type { Slot } from './peer';

export type { PeerCryptoStats };

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

type WithEncodedStreams = { createEncodedStreams(): { readable: ReadableStream<EncodedFrame>; writable: WritableStream<EncodedFrame> } };

/** Chromium: createEncodedStreams() on the page, with `encodedInsertableStreams` (fail-closed). */
export class StreamsBackend implements FrameBackend {
  readonly rtcConfig = { encodedInsertableStreams: true } as RTCConfiguration;
  tap: FrameTap | null = null;
  private readonly keyring = new FrameKeyring();
  /** createEncodedStreams() may be called once per sender or receiver. */
  private readonly attached = new WeakSet<object>();

  attachSender(peerId: string, slot: Slot, sender: RTCRtpSender) {
    const transform = encryptingTransform(kindOf(slot), () => this.keyring.encryptor(peerId, slot), this.keyring.countersOf(peerId).sent, () => this.tap);
    this.pipe(sender, transform);
  }

  attachReceiver(peerId: string, slot: Slot, receiver: RTCRtpReceiver) {
    this.pipe(receiver, decryptingTransform(kindOf(slot), this.keyring.decryptor(peerId, slot), this.keyring.countersOf(peerId).received));
  }

  setSendKey(peerId: string, slot: Slot, keyId: string, kid: bigint, baseKey: Bytes) {
    return this.keyring.setSendKey(peerId, slot, keyId, kid, baseKey);
  }

  setReceiveKey(peerId: string, slot: Slot, kid: bigint, baseKey: Bytes) {
    return this.keyring.setReceiveKey(peerId, slot, kid, baseKey);
  }

  withhold(withhold: boolean) {
    this.keyring.withhold = withhold;
  }

  async stats() {
    return this.keyring.stats();
  }

  private pipe(endpoint: RTCRtpSender | RTCRtpReceiver, transform: TransformStream<EncodedFrame, EncodedFrame>) {
    if (this.attached.has(endpoint)) return;
    this.attached.add(endpoint);
    const streams = (endpoint as unknown as WithEncodedStreams).createEncodedStreams();
    void streams.readable.pipeThrough(transform).pipeTo(streams.writable).catch(() => {});
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
