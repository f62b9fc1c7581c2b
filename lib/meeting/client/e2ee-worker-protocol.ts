// Messages between the page and the frame-encryption worker (e2ee-worker.ts).
import type { Slot } from './peer';

/** What each RTCRtpScriptTransform is told about the frames it sees. */
export interface TransformOptions {
  peerId: string;
  slot: Slot;
  side: 'send' | 'receive';
  kind: 'audio' | 'video';
}

export type WorkerCommand =
  /** `keyId` names the key for good: the worker makes one encryptor per id, ever. */
  | { type: 'send-key'; peerId: string; slot: Slot; keyId: string; kid: string; baseKey: Uint8Array<ArrayBuffer> }
  | { type: 'receive-key'; peerId: string; slot: Slot; kid: string; baseKey: Uint8Array<ArrayBuffer> }
  | { type: 'withhold'; withhold: boolean }
  | { type: 'stats'; requestId: number };
