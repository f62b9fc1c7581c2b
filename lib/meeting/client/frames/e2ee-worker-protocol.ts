// Messages between the page and the frame-encryption worker (e2ee-worker.ts).
import type { EncodedFrame, PeerCryptoStats } from './frame-types';
import type { Slot } from '../links/slots';

/** What the worker is told about the frames of one sender or receiver. */
export interface TransformOptions {
  peerId: string;
  slot: Slot;
  side: 'send' | 'receive';
  kind: 'audio' | 'video';
}

/** A sender's frames, clear and sealed, after the clear prefix (the ciphertext proof). */
export interface FrameSample {
  plain: number[];
  sealed: number[];
}

/** Commands the worker answers, once, with a reply carrying the same `requestId`. */
export type WorkerRequest =
  /** `keyId` names the key for good: the worker makes one encryptor per id, ever. */
  | { type: 'send-key'; peerId: string; slot: Slot; keyId: string; kid: string; baseKey: Uint8Array<ArrayBuffer> }
  | { type: 'receive-key'; peerId: string; slot: Slot; kid: string; baseKey: Uint8Array<ArrayBuffer> }
  /** Through the SFU: a sender's key from its box, and the chain its joins ratchet on (FrameKeyring.setReceiveChain). */
  | { type: 'receive-chain'; peerId: string; generation: number; key: Uint8Array<ArrayBuffer> }
  /** A sender's older generation, once its grace is over: nothing under it opens any more. */
  | { type: 'drop-receive-key'; peerId: string; slot: Slot; kid: string }
  /** Through the SFU: the key our frames are signed with (a non-extractable CryptoKey, cloned to the worker). */
  | { type: 'frame-signer'; peerId: string; privateKey: CryptoKey }
  /** Through the SFU: a sender's public frame-proof key (raw P-256). */
  | { type: 'frame-verifier'; peerId: string; publicKey: Uint8Array<ArrayBuffer> }
  /**
   * The receiver attached as `name` opens frames with the keys of (peerId, slot) from now on:
   * through the SFU a receiving transceiver can carry another sender's stream after a
   * renegotiation, and its transform, attached once, must follow.
   */
  | { type: 'route'; name: string; peerId: string; slot: Slot }
  /** Drop every frame a sender would send (tests of fail-closed sending), or stop dropping. */
  | { type: 'withhold'; withhold: boolean }
  | { type: 'stats' }
  /** Tests: the next `count` frames the senders encrypt. */
  | { type: 'sample'; count: number };

export type WorkerCommand =
  | (WorkerRequest & { requestId: number })
  /** Chromium: a sender's or receiver's encoded streams, transferred from the page. */
  | { type: 'streams'; options: TransformOptions; readable: ReadableStream<EncodedFrame>; writable: WritableStream<EncodedFrame> };

export type WorkerReply =
  | { type: 'done'; requestId: number }
  /** A key the worker could not derive: the page's setSendKey/setReceiveKey rejects. */
  | { type: 'failed'; requestId: number }
  | { type: 'stats'; requestId: number; stats: Record<string, PeerCryptoStats> }
  | { type: 'sample'; requestId: number; samples: FrameSample[] };
