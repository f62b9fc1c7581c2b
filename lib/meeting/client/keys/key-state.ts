// What the key exchange tells the screen: each peer's key state and the encryption indicator.
// Plain types: the machine's state (call/meeting-state.ts) holds them without importing crypto.

/** What a peer's keys say about it: only "verified" peers are connected to. */
export type PeerKeyState = 'pending' | 'verified' | 'mismatch' | 'tampered';

/** How this page got S: from the link's #k, by a handoff from a participant, or it made S itself. */
export type SecretSource = 'link' | 'handoff' | 'created';

/**
 * The encryption indicator (docs/e2ee-crypto.md "Safety code"): starting, waiting for a participant to hand
 * over the key, on, or refused because our link's key is not this meeting's.
 */
export interface EncryptionState {
  status: 'starting' | 'waiting-key' | 'on' | 'wrong-key';
  source: SecretSource | null;
  /** Raised by every removal: the removed participant's keys open nothing sent after it. */
  epoch: number;
  /** The room password is mixed into the key (docs/e2ee-crypto.md "Secrets"). */
  password: boolean;
  /** The link's key was out of date (the room restarted, or a removal rekeyed it): the key came by handoff instead (issue 48). */
  staleLink?: boolean;
}
