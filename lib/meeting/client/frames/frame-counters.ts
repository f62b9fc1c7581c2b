// Frame counters per direction, for the indicator, the "wrong key" message and the proofs.

export interface FrameCounters {
  encrypted: number;
  decrypted: number;
  /** Frames dropped because no key was there yet (fail-closed). */
  withheld: number;
  /** `forged`: through the SFU, a frame not signed by the sender it claims to come from (frame-proof.ts). */
  failed: { malformed: number; 'unknown-key': number; replay: number; auth: number; forged: number };
  /** Milliseconds spent sealing or opening frames (wall time of the awaits: an upper bound of their CPU). */
  busyMs: number;
}

export const newCounters = (): FrameCounters => ({
  encrypted: 0,
  decrypted: 0,
  withheld: 0,
  failed: { malformed: 0, 'unknown-key': 0, replay: 0, auth: 0, forged: 0 },
  busyMs: 0,
});
