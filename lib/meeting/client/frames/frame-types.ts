// A frame as the transforms see it, and what they count per peer: plain types, shared by the
// page's backends, the worker and its message protocol without their crypto.
import type { FrameCounters } from './frame-counters';

export type EncodedFrame = { data: ArrayBuffer; type?: 'key' | 'delta' | 'empty'; getMetadata?: () => { mimeType?: string } };

export interface PeerCryptoStats {
  sent: FrameCounters;
  received: FrameCounters;
}
