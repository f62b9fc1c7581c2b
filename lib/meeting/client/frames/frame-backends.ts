// Where frames are encrypted (docs/e2ee-crypto.md "Browser APIs"): always in a worker (e2ee-worker.ts), so
// the page's main thread, which draws the call, never waits for a frame. The frames get there by
// one of two paths: Chromium's createEncodedStreams(), whose streams the page transfers to the
// worker, or the standard RTCRtpScriptTransform. MeetingCrypto derives the keys; the backend
// hands them and the frames to the worker, and asks it for counters.
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { SenderKey } from '@/lib/meeting/e2ee/sender-chain';
import type { FrameSample, TransformOptions, WorkerCommand, WorkerReply, WorkerRequest } from './e2ee-worker-protocol';
import type { EncodedFrame, PeerCryptoStats } from './frame-types';
import type { Slot } from '../links/slots';

export type { PeerCryptoStats };

export interface FrameBackend {
  /** RTCPeerConnection options this path needs. */
  readonly rtcConfig: RTCConfiguration;
  attachSender(peerId: string, slot: Slot, sender: RTCRtpSender): void;
  /** Must run in the task that creates the receiver: a later transform is bypassed (docs/e2ee-crypto.md). */
  attachReceiver(peerId: string, slot: Slot, receiver: RTCRtpReceiver): void;
  /** `keyId` names one key for good: the same id never gets a second encryptor (nonces from 0). */
  setSendKey(peerId: string, slot: Slot, keyId: string, kid: bigint, baseKey: Bytes): Promise<void>;
  setReceiveKey(peerId: string, slot: Slot, kid: bigint, baseKey: Bytes): Promise<void>;
  /** Through the SFU: a sender's key from its box, with the generations its joins ratchet to (FrameKeyring.setReceiveChain). */
  setReceiveChain(peerId: string, key: SenderKey): Promise<void>;
  /** A sender's older generation, after its grace (sender-key-ring.ts). */
  dropReceiveKey(peerId: string, slot: Slot, kid: bigint): Promise<void>;
  /** Through the SFU: our frames under `peerId` are signed with this key (docs/e2ee-crypto.md "Sender proof"). */
  setFrameSigner(peerId: string, privateKey: CryptoKey): Promise<void>;
  /** Through the SFU: frames from `peerId` must carry this sender's signature. */
  setFrameVerifier(peerId: string, publicKey: Bytes): Promise<void>;
  /** The receiver attached as `name` opens frames with (peerId, slot)'s keys from now on (the SFU's receivers). */
  route(name: string, peerId: string, slot: Slot): Promise<void>;
  /** Resolves once the worker drops (or sends again) every frame. */
  withhold(withhold: boolean): Promise<void>;
  stats(): Promise<Record<string, PeerCryptoStats>>;
  /** Tests: the next `count` frames the senders encrypt, clear and sealed (the ciphertext proof). */
  sampleFrames(count: number): Promise<FrameSample[]>;
}

/**
 * 'streams': Chromium's createEncodedStreams() with `encodedInsertableStreams`, which drops every
 * frame until its streams are piped (fail-closed). 'script': RTCRtpScriptTransform.
 */
export type FramePath = 'streams' | 'script';

/**
 * Which path this browser has; createEncodedStreams first where both exist. Chromium also has
 * RTCRtpScriptTransform (141+), but a transform it fails to attach is bypassed silently (docs/e2ee-crypto.md),
 * while encodedInsertableStreams never lets a frame past unencrypted.
 */
export function framePath(prefer?: FramePath): FramePath | null {
  const streams = typeof RTCRtpSender !== 'undefined' && 'createEncodedStreams' in RTCRtpSender.prototype;
  const script = typeof RTCRtpScriptTransform !== 'undefined';
  if (prefer === 'script' && script) return 'script';
  return streams ? 'streams' : script ? 'script' : null;
}

const kindOf = (slot: Slot) => (slot === 'audio' ? 'audio' : 'video');

type WithEncodedStreams = { createEncodedStreams(): { readable: ReadableStream<EncodedFrame>; writable: WritableStream<EncodedFrame> } };

/** What the backend needs of a Worker; the unit tests give it one that runs in the same process. */
export interface WorkerPort {
  postMessage(message: WorkerCommand, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<WorkerReply>) => void): void;
  /** The worker's script failed to load or threw at the top level. */
  addEventListener(type: 'error', listener: () => void): void;
}

export class WorkerBackend implements FrameBackend {
  readonly rtcConfig: RTCConfiguration;
  /** A sender or receiver gets its streams or transform once (createEncodedStreams() throws the second time). */
  private readonly attached = new WeakSet<object>();
  private requests = 0;
  /** Requests waiting for the worker's reply, by id. */
  private readonly pending = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();
  /** Set once the worker failed: key exchange waits on its answers, so it must never wait for one that cannot come. */
  private failure: Error | null = null;

  constructor(
    readonly path: FramePath,
    private readonly worker: WorkerPort,
  ) {
    this.rtcConfig = path === 'streams' ? ({ encodedInsertableStreams: true } as RTCConfiguration) : {};
    worker.addEventListener('message', (event) => {
      const reply = event.data;
      this.pending.get(reply?.requestId)?.resolve(reply);
      this.pending.delete(reply?.requestId);
    });
    worker.addEventListener('error', () => {
      // Frames stay dropped (fail-closed); what waits for the worker learns it now.
      this.failure = new Error('the frame-encryption worker failed');
      for (const { reject } of this.pending.values()) reject(this.failure);
      this.pending.clear();
    });
  }

  attachSender(peerId: string, slot: Slot, sender: RTCRtpSender) {
    this.attach(sender, { peerId, slot, side: 'send', kind: kindOf(slot) });
  }

  attachReceiver(peerId: string, slot: Slot, receiver: RTCRtpReceiver) {
    this.attach(receiver, { peerId, slot, side: 'receive', kind: kindOf(slot) });
  }

  async setSendKey(peerId: string, slot: Slot, keyId: string, kid: bigint, baseKey: Bytes) {
    this.check(await this.request({ type: 'send-key', peerId, slot, keyId, kid: kid.toString(), baseKey }));
  }

  async setReceiveKey(peerId: string, slot: Slot, kid: bigint, baseKey: Bytes) {
    this.check(await this.request({ type: 'receive-key', peerId, slot, kid: kid.toString(), baseKey }));
  }

  async setReceiveChain(peerId: string, { generation, key }: SenderKey) {
    this.check(await this.request({ type: 'receive-chain', peerId, generation, key: Uint8Array.from(key) }));
  }

  async dropReceiveKey(peerId: string, slot: Slot, kid: bigint) {
    await this.request({ type: 'drop-receive-key', peerId, slot, kid: kid.toString() });
  }

  async setFrameSigner(peerId: string, privateKey: CryptoKey) {
    this.check(await this.request({ type: 'frame-signer', peerId, privateKey }));
  }

  async setFrameVerifier(peerId: string, publicKey: Bytes) {
    this.check(await this.request({ type: 'frame-verifier', peerId, publicKey }));
  }

  async route(name: string, peerId: string, slot: Slot) {
    await this.request({ type: 'route', name, peerId, slot });
  }

  async withhold(withhold: boolean) {
    await this.request({ type: 'withhold', withhold });
  }

  async stats() {
    const reply = await this.request({ type: 'stats' });
    return reply.type === 'stats' ? reply.stats : {};
  }

  async sampleFrames(count: number) {
    const reply = await this.request({ type: 'sample', count });
    return reply.type === 'sample' ? reply.samples : [];
  }

  private attach(endpoint: RTCRtpSender | RTCRtpReceiver, options: TransformOptions) {
    if (this.attached.has(endpoint)) return;
    this.attached.add(endpoint);
    if (this.path === 'script') {
      endpoint.transform = new RTCRtpScriptTransform(this.worker as Worker, options);
      return;
    }
    // Made in this task (a receiver's in the task that creates it); the frames wait in the
    // readable until the worker takes them, and are never passed on in clear meanwhile.
    const { readable, writable } = (endpoint as unknown as WithEncodedStreams).createEncodedStreams();
    this.worker.postMessage({ type: 'streams', options, readable, writable }, [readable as unknown as Transferable, writable as unknown as Transferable]);
  }

  private check(reply: WorkerReply) {
    if (reply.type === 'failed') throw new Error('the frame-encryption worker could not set the key');
  }

  /** Sends a request to the worker; resolves with its reply, rejects if the worker failed. */
  private request(command: WorkerRequest): Promise<WorkerReply> {
    if (this.failure) return Promise.reject(this.failure);
    const requestId = ++this.requests;
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve, reject });
      this.worker.postMessage({ ...command, requestId });
    });
  }
}

export function createFrameBackend(path: FramePath): FrameBackend {
  return new WorkerBackend(path, new Worker(new URL('./e2ee-worker.ts', import.meta.url), { type: 'module' }));
}
