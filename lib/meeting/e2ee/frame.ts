// The media frame format: clear codec prefix ‖ SFrame header ‖ ciphertext ‖ tag, where the prefix
// stays readable for the depacketizer and is authenticated as SFrame metadata (AAD = header ‖ prefix).
import { concatBytes, type Bytes } from './bytes';
import { aeadOpen, aeadSeal, decodeHeader, encodeHeader, NT, type SFrameKey } from './sframe';

export type MediaCodec = 'vp8' | 'opus' | 'unknown';

/** Bytes left in clear: VP8's payload header (10 on key frames, 3 on delta frames), Opus's TOC byte. */
export function clearPrefixLength(codec: MediaCodec, keyFrame: boolean): number {
  if (codec === 'vp8') return keyFrame ? 10 : 3;
  if (codec === 'opus') return 1;
  return 0;
}

/**
 * Frames per key. 2^32 is over four years at 30 fps; past it the sender must ratchet (new KID,
 * new key and salt) rather than let the 64-bit CTR grow. The counter never wraps.
 */
export const MAX_COUNTER = 0xffffffff;

export class CounterExhaustedError extends Error {
  constructor() {
    super('SFrame counter exhausted for this key: ratchet before sending more frames');
    this.name = 'CounterExhaustedError';
  }
}

/** Keys that already have an encryptor: a second one would restart at CTR 0 and repeat nonces. */
const claimedKeys = new WeakSet<SFrameKey>();

/**
 * The only sender for one SFrame key. To restart sending (new transform, new worker), ratchet to
 * a new KID; never re-derive the same KID for a second encryptor.
 */
export class FrameEncryptor {
  readonly #key: SFrameKey;
  #next: number;

  /** `unsafeFirstCounterForTests` exists only to reach the limit in tests; real senders start at 0. */
  constructor(key: SFrameKey, options: { unsafeFirstCounterForTests?: number } = {}) {
    if (claimedKeys.has(key)) throw new Error('this SFrame key already has an encryptor');
    claimedKeys.add(key);
    this.#key = key;
    this.#next = options.unsafeFirstCounterForTests ?? 0;
  }

  get kid(): bigint {
    return this.#key.kid;
  }

  /** Reserves the next counter synchronously, so concurrent encrypt calls never share one. */
  takeCounter(): number {
    if (this.#next > MAX_COUNTER) throw new CounterExhaustedError();
    const ctr = this.#next;
    this.#next += 1;
    return ctr;
  }

  /** Null when the frame is shorter than its clear prefix: nothing is sent rather than a frame in clear. */
  async encrypt(frame: Bytes, prefixLength: number): Promise<Bytes | null> {
    if (frame.length < prefixLength) return null;
    const ctr = this.takeCounter();
    const header = encodeHeader(this.#key.kid, BigInt(ctr));
    const prefix = frame.subarray(0, prefixLength);
    const sealed = await aeadSeal(this.#key, ctr, concatBytes(header, prefix), frame.subarray(prefixLength));
    const out = new Uint8Array(prefixLength + header.length + sealed.byteLength);
    out.set(prefix);
    out.set(header, prefixLength);
    out.set(new Uint8Array(sealed), prefixLength + header.length);
    return out;
  }
}

/**
 * Sliding replay window over the last `size` counters. Each slot remembers the last counter that
 * mapped to it; a counter inside the window is new unless its slot already holds it. O(1), no shifts.
 */
export class ReplayWindow {
  readonly #slots: Float64Array;
  #highest = -1;

  constructor(readonly size = 128) {
    this.#slots = new Float64Array(size).fill(-1);
  }

  /** Would `ctr` be accepted? Does not record it. */
  check(ctr: number): boolean {
    if (ctr > this.#highest) return true;
    if (ctr <= this.#highest - this.size) return false;
    return this.#slots[ctr % this.size] !== ctr;
  }

  /** Records `ctr` if new; false for a duplicate or a counter older than the window. */
  accept(ctr: number): boolean {
    if (!this.check(ctr)) return false;
    if (ctr > this.#highest) this.#highest = ctr;
    this.#slots[ctr % this.size] = ctr;
    return true;
  }
}

export type OpenResult = { ok: true; frame: Bytes } | { ok: false; reason: 'malformed' | 'unknown-key' | 'replay' | 'auth' };

interface ReceiveKey {
  key: SFrameKey;
  window: ReplayWindow;
}

/**
 * Where a decryptor finds a key it does not hold yet: the next generations of a sender's chain
 * (frame-transform.ts FrameKeyring.setReceiveChain). Tried on the frame, kept only if it opens it.
 */
export interface KeyFollower {
  keyFor(kid: bigint): Promise<SFrameKey | null>;
  /** Once a followed key opens a frame, keys older than its KID minus this are let go. */
  keepBelow: bigint;
}

export class FrameDecryptor {
  readonly #keys = new Map<bigint, ReceiveKey>();
  #follower: KeyFollower | null = null;

  constructor(readonly windowSize = 128) {}

  follow(follower: KeyFollower | null): void {
    this.#follower = follower;
  }

  /** Installs a key; a fresh replay window goes with it. */
  setKey(key: SFrameKey): void {
    this.#keys.set(key.kid, { key, window: new ReplayWindow(this.windowSize) });
  }

  deleteKey(kid: bigint): void {
    this.#keys.delete(kid);
  }

  hasKey(kid: bigint): boolean {
    return this.#keys.has(kid);
  }

  /** Opens a frame, saying why it was refused (for counters and the "wrong secret" message). */
  async open(data: Bytes, prefixLength: number): Promise<OpenResult> {
    if (data.length < prefixLength + 1 + NT) return { ok: false, reason: 'malformed' };
    const header = decodeHeader(data, prefixLength);
    if (!header || header.ctr > BigInt(MAX_COUNTER)) return { ok: false, reason: 'malformed' };
    const held = this.#keys.get(header.kid);
    const followed = held ? null : await this.#follower?.keyFor(header.kid);
    const entry = held ?? (followed ? { key: followed, window: new ReplayWindow(this.windowSize) } : null);
    if (!entry) return { ok: false, reason: 'unknown-key' };
    const ctr = Number(header.ctr);
    // Cheap early refusal; the window only records a counter after the tag verifies, so forged
    // frames cannot push it forward.
    if (!entry.window.check(ctr)) return { ok: false, reason: 'replay' };
    const bodyStart = prefixLength + header.length;
    const aad = concatBytes(data.subarray(prefixLength, bodyStart), data.subarray(0, prefixLength));
    const opened = await aeadOpen(entry.key, ctr, aad, data.subarray(bodyStart));
    // A key we derived that does not open the frame is a key we do not hold (a fresh one whose box
    // is still on its way): 'auth' stays for frames that fail under a key we were given.
    if (!opened) return { ok: false, reason: followed ? 'unknown-key' : 'auth' };
    // Checked again: a duplicate may have been verified concurrently while we awaited.
    if (!entry.window.accept(ctr)) return { ok: false, reason: 'replay' };
    if (followed && !this.keepFollowed(header.kid, entry, ctr)) return { ok: false, reason: 'replay' };
    const frame = new Uint8Array(prefixLength + opened.byteLength);
    frame.set(data.subarray(0, prefixLength));
    frame.set(new Uint8Array(opened), prefixLength);
    return { ok: true, frame };
  }

  /**
   * A followed key opened a frame: the sender is on it now, and keys well behind it go. Another
   * frame under the same KID may have got there first: one key, one replay window, so the
   * counter must pass that window too. False for a replay.
   */
  private keepFollowed(kid: bigint, entry: ReceiveKey, ctr: number): boolean {
    const kept = this.#keys.get(kid);
    if (kept) return kept === entry || kept.window.accept(ctr);
    this.#keys.set(kid, entry);
    const oldest = kid - (this.#follower?.keepBelow ?? BigInt(0));
    for (const held of [...this.#keys.keys()]) if (held < oldest) this.#keys.delete(held);
    return true;
  }

  /** The plaintext frame, or null: a frame that fails is dropped, never passed on. */
  async decrypt(data: Bytes, prefixLength: number): Promise<Bytes | null> {
    const result = await this.open(data, prefixLength);
    return result.ok ? result.frame : null;
  }
}
