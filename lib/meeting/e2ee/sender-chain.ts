// A sender key and what follows from it alone (docs/e2ee-crypto.md "Rotation"): the KID its frames
// carry, each transceiver's SFrame base key, and the ratchet a join moves it on by. Apart from
// sender-keys.ts (the boxes that carry keys between pages), so that the frame worker, which
// follows the ratchets itself, loads none of the sealing.
import { concatBytes, field, utf8, type Bytes } from './bytes';
import { hkdf } from './hkdf';
import { kidFor, MEDIA_KEY_LENGTH } from './keys';

export const SENDER_CHAIN_LABELS = {
  /** One transceiver's SFrame base key, from the sender key. */
  media: 'enclave sender media',
  /** A sender's next key on a join, from its key in use (ratchetSenderKey). */
  ratchet: 'enclave sender ratchet',
} as const;

/** A generation is a 32-bit number in the KID's epoch part (keys.ts kidFor). */
export const MAX_GENERATION = 0xffffffff;

/** One of a sender's keys: the n-th it made in this meeting, never reused. */
export interface SenderKey {
  generation: number;
  key: Bytes;
  /** The public key its frames are signed with (frame-proof.ts), sealed with the key so that it is the sender's. */
  proof?: Bytes;
}

/**
 * The next generation of a sender's chain, made on a join (docs/e2ee-crypto.md "Rotation"):
 * HKDF(key, info = label), one way, so the joiner who is handed it cannot derive the key before it,
 * while everyone already here derives it themselves and needs no message. The proof key stays.
 */
export async function ratchetSenderKey(key: SenderKey): Promise<SenderKey> {
  const generation = key.generation + 1;
  if (generation > MAX_GENERATION) throw new RangeError('generation out of range');
  const next = await hkdf(key.key, new Uint8Array(0), utf8(SENDER_CHAIN_LABELS.ratchet), MEDIA_KEY_LENGTH);
  return key.proof ? { generation, key: next, proof: key.proof } : { generation, key: next };
}

/** The KID of a sender key's frames: its generation in the epoch part, so a receiver tells keys apart. */
export function senderKid(generation: number): bigint {
  return kidFor(generation, 0);
}

/**
 * How far past the newest key a sender handed us its chain is followed (docs/e2ee-crypto.md
 * "Rotation"): one generation per join, so this many joins between two fresh keys. Bounds
 * the derivations a frame with a far KID can cost.
 */
export const FOLLOW_GENERATIONS = 64;

/** The generation a sender key's KID names, or null for a KID no sender key has. */
export function senderGeneration(kid: bigint): number | null {
  const perGeneration = senderKid(1);
  if (kid < BigInt(0) || kid % perGeneration !== BigInt(0) || kid / perGeneration > BigInt(MAX_GENERATION)) return null;
  return Number(kid / perGeneration);
}

/**
 * The SFrame base key of one transceiver (audio, camera, screen): each has its own counter, so
 * each needs its own key for nonces never to repeat.
 */
export function senderMediaBaseKey(key: Bytes, slot: string): Promise<Bytes> {
  return hkdf(key, new Uint8Array(0), concatBytes(utf8(SENDER_CHAIN_LABELS.media), field(slot)), MEDIA_KEY_LENGTH);
}
