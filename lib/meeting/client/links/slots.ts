// What a link carries, as plain types: the three transceivers every connection has, and the
// description or candidate its negotiation sends through the key exchange.

export type Slot = 'audio' | 'camera' | 'screen';
export const SLOTS: readonly Slot[] = ['audio', 'camera', 'screen'];

export interface SignalPayload {
  description?: { type: 'offer' | 'answer' | 'pranswer' | 'rollback'; sdp?: string };
  candidate?: { candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null; usernameFragment?: string | null } | null;
}
