// Frame encryption for one sender or receiver (docs/e2ee-crypto.md "Frames"), run by the worker
// (frame-worker-core.ts) whichever way the frames reach it: the transforms, and the keyring
// behind them. A frame without a key is dropped, never sent or decoded in clear (fail-closed).
// No DOM.
import { clearPrefixLength, FrameDecryptor, FrameEncryptor, type MediaCodec } from '@/lib/meeting/e2ee/frame';
import { deriveSFrameKey, type SFrameKey } from '@/lib/meeting/e2ee/sframe';
import { checkFrame, importFrameProofKey, proveFrame } from '@/lib/meeting/e2ee/frame-proof';
import { FOLLOW_GENERATIONS, ratchetSenderKey, senderGeneration, senderKid, senderMediaBaseKey, type SenderKey } from '@/lib/meeting/e2ee/sender-chain';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import { newCounters, type FrameCounters } from './frame-counters';
import type { EncodedFrame, PeerCryptoStats } from './frame-types';
import { SLOTS, type Slot } from '../links/slots';

export type { EncodedFrame, PeerCryptoStats };

function codecOf(kind: 'audio' | 'video', frame: EncodedFrame): MediaCodec {
  if (kind === 'audio') return 'opus';
  const mime = frame.getMetadata?.().mimeType?.toLowerCase();
  // VP8 is preferred by setCodecPreferences; a frame without a mime type is from that codec too.
  return !mime || mime === 'video/vp8' ? 'vp8' : 'unknown';
}

/**
 * The clear prefix of each frame of one stream. The codec is read from the frame's metadata on
 * key frames only (and the first frame): a stream changes codec only at a key frame, and
 * getMetadata() builds a whole dictionary per call.
 */
function prefixReader(kind: 'audio' | 'video') {
  let codec: MediaCodec | null = null;
  return (frame: EncodedFrame) => {
    const key = frame.type === 'key';
    if (key || codec === null) codec = codecOf(kind, frame);
    return clearPrefixLength(codec, key);
  };
}

/** A tap on the frames a sender encrypts: (clear, encrypted) pairs, for the ciphertext proof. */
export interface FrameTap {
  take(plain: Bytes, sealed: Bytes, prefix: number): void;
}

/** Encrypts every frame with the encryptor `current()` gives (and signs it when `signer()` gives a key), or drops it. */
export function encryptingTransform(
  kind: 'audio' | 'video',
  current: () => FrameEncryptor | null,
  counters: FrameCounters,
  tap?: () => FrameTap | null,
  signer?: () => CryptoKey | null,
): TransformStream<EncodedFrame, EncodedFrame> {
  const prefixOf = prefixReader(kind);
  return new TransformStream<EncodedFrame, EncodedFrame>({
    async transform(frame, controller) {
      const encryptor = current();
      if (!encryptor) {
        counters.withheld += 1;
        return;
      }
      const plain = new Uint8Array(frame.data);
      const prefix = prefixOf(frame);
      const started = performance.now();
      const proof = signer?.();
      const encrypted = await encryptor.encrypt(plain, prefix).catch(() => null);
      const sealed = encrypted && proof ? await proveFrame(proof, encrypted).catch(() => null) : encrypted;
      counters.busyMs += performance.now() - started;
      if (!sealed) return;
      tap?.()?.take(plain, sealed, prefix);
      frame.data = sealed.buffer;
      counters.encrypted += 1;
      controller.enqueue(frame);
    },
  });
}

/** What opens one receiver's frames, and where they are counted. */
export interface FrameOpening {
  decryptor: FrameDecryptor;
  counters: FrameCounters;
  /** The sender's frame-proof key once known: from then on a frame it did not sign is dropped as forged. */
  verifier?: () => CryptoKey | null;
}

/**
 * Decrypts every frame with the decryptor `current()` names at that moment (a receiver Janus
 * gives another sender is pointed at that sender's keys: FrameWorkerCore.route); a frame that does
 * not open is dropped and counted by reason.
 */
export function decryptingTransform(kind: 'audio' | 'video', current: () => FrameOpening): TransformStream<EncodedFrame, EncodedFrame> {
  const prefixOf = prefixReader(kind);
  return new TransformStream<EncodedFrame, EncodedFrame>({
    async transform(frame, controller) {
      const { decryptor, counters, verifier } = current();
      const started = performance.now();
      const proof = verifier?.();
      const data = proof ? await checkFrame(proof, new Uint8Array(frame.data)) : new Uint8Array(frame.data);
      if (!data) {
        counters.busyMs += performance.now() - started;
        counters.failed.forged += 1;
        return;
      }
      const opened = await decryptor.open(data, prefixOf(frame));
      counters.busyMs += performance.now() - started;
      if (!opened.ok) {
        counters.failed[opened.reason] += 1;
        return;
      }
      frame.data = opened.frame.buffer;
      counters.decrypted += 1;
      controller.enqueue(frame);
    },
  });
}

const pathOf = (peerId: string, slot: Slot) => `${peerId}/${slot}`;

/** Generations kept behind the newest one a sender's frames opened under (frames in flight). */
const FOLLOW_KEEP = 8;

/** A sender's key chain as far as we derived it: the generation it handed us, and those after. */
interface SenderChain {
  from: number;
  keys: Map<number, Promise<SenderKey>>;
  /** Per slot and generation: frames arriving together under a new KID share one derivation. */
  frameKeys: Map<string, Promise<SFrameKey>>;
}

/**
 * The frame keys of one page (or its worker): an encryptor per key id for good — the same id
 * never gets a second encryptor, which would restart its nonces at 0 — the current one per
 * (peer, slot), a decryptor per (peer, slot) holding every epoch's key, and counters per peer.
 */
export class FrameKeyring {
  withhold = false;
  private readonly encryptors = new Map<string, FrameEncryptor>();
  private readonly current = new Map<string, string>();
  private readonly decryptors = new Map<string, FrameDecryptor>();
  private readonly counters = new Map<string, PeerCryptoStats>();
  /** Frame-proof keys: ours per sender name (the SFU's), and each sender's public one per receiver name. */
  private readonly signers = new Map<string, CryptoKey>();
  private readonly verifiers = new Map<string, CryptoKey>();
  /** Through the SFU: each sender's chain from its newest box, for the generations its joins make. */
  private readonly chains = new Map<string, SenderChain>();

  async setSendKey(peerId: string, slot: Slot, keyId: string, kid: bigint, baseKey: Bytes) {
    if (!this.encryptors.has(keyId)) this.encryptors.set(keyId, new FrameEncryptor(await deriveSFrameKey(baseKey, kid)));
    this.current.set(pathOf(peerId, slot), keyId);
  }

  async setReceiveKey(peerId: string, slot: Slot, kid: bigint, baseKey: Bytes) {
    this.decryptor(peerId, slot).setKey(await deriveSFrameKey(baseKey, kid));
  }

  /**
   * Through the SFU: a sender's key from its box. Its frames open under it, and under each
   * generation its ratchet makes on a join (sender-chain.ts ratchetSenderKey), derived when the
   * first frame that names one arrives: nobody is sent those.
   */
  async setReceiveChain(peerId: string, key: SenderKey) {
    this.chains.set(peerId, { from: key.generation, keys: new Map([[key.generation, Promise.resolve(key)]]), frameKeys: new Map() });
    await Promise.all(
      SLOTS.map(async (slot) => this.decryptor(peerId, slot).setKey(await deriveSFrameKey(await senderMediaBaseKey(key.key, slot), senderKid(key.generation)))),
    );
  }

  /** The SFrame key of a later generation of `peerId`'s chain, if the KID names one within reach. */
  private async followChain(peerId: string, slot: Slot, kid: bigint): Promise<SFrameKey | null> {
    const chain = this.chains.get(peerId);
    const generation = senderGeneration(kid);
    if (!chain || generation === null || generation <= chain.from || generation > chain.from + FOLLOW_GENERATIONS) return null;
    const path = `${slot} ${generation}`;
    let frameKey = chain.frameKeys.get(path);
    if (!frameKey)
      chain.frameKeys.set(
        path,
        (frameKey = this.chainKey(chain, generation).then(async (key) => deriveSFrameKey(await senderMediaBaseKey(key.key, slot), kid))),
      );
    return frameKey;
  }

  private chainKey(chain: SenderChain, generation: number): Promise<SenderKey> {
    let key = chain.keys.get(generation);
    if (!key) chain.keys.set(generation, (key = this.chainKey(chain, generation - 1).then(ratchetSenderKey)));
    return key;
  }

  async dropReceiveKey(peerId: string, slot: Slot, kid: bigint) {
    this.decryptors.get(pathOf(peerId, slot))?.deleteKey(kid);
    // The box a chain starts from is gone (the sender left our breakout room): nothing follows it any more.
    const chain = this.chains.get(peerId);
    if (chain && senderKid(chain.from) === kid) this.chains.delete(peerId);
  }

  async setFrameSigner(peerId: string, privateKey: CryptoKey) {
    this.signers.set(peerId, privateKey);
  }

  /** Once set, frames of `peerId` that its key did not sign are dropped (a sender's proof key never changes in a page). */
  async setFrameVerifier(peerId: string, publicKey: Bytes) {
    if (!this.verifiers.has(peerId)) this.verifiers.set(peerId, await importFrameProofKey(publicKey));
  }

  signer(peerId: string): CryptoKey | null {
    return this.signers.get(peerId) ?? null;
  }

  verifier(peerId: string): CryptoKey | null {
    return this.verifiers.get(peerId) ?? null;
  }

  /** The encryptor a sender uses now, or null (no key yet, or withheld). */
  encryptor(peerId: string, slot: Slot): FrameEncryptor | null {
    if (this.withhold) return null;
    return this.encryptors.get(this.current.get(pathOf(peerId, slot)) ?? '') ?? null;
  }

  /** Made on first use, so a receiver can be attached before its key arrives. */
  decryptor(peerId: string, slot: Slot): FrameDecryptor {
    let decryptor = this.decryptors.get(pathOf(peerId, slot));
    if (!decryptor) {
      this.decryptors.set(pathOf(peerId, slot), (decryptor = new FrameDecryptor()));
      decryptor.follow({ keyFor: (kid) => this.followChain(peerId, slot, kid), keepBelow: senderKid(FOLLOW_KEEP) });
    }
    return decryptor;
  }

  countersOf(peerId: string): PeerCryptoStats {
    let entry = this.counters.get(peerId);
    if (!entry) this.counters.set(peerId, (entry = { sent: newCounters(), received: newCounters() }));
    return entry;
  }

  stats(): Record<string, PeerCryptoStats> {
    return structuredClone(Object.fromEntries(this.counters));
  }
}
