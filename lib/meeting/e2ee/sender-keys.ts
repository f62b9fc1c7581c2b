// Per-sender media keys for meetings through the SFU (issue 38; docs/e2ee-crypto.md "Sender keys").
// Through a forwarder one encrypted stream reaches every receiver, so pairwise keys cannot be
// used: each participant makes a random sender key, encrypts its frames once, and hands the key
// to each other participant sealed under their pairwise key (ECDH, salted with the root R), in a
// signed signal the server relays but cannot open. A participant who leaves or is removed is
// given none of the keys made after it: everyone makes a new one (the rotation), so nothing sent
// from then on opens for it. Pure WebCrypto, as the rest of lib/meeting/e2ee.
import { base64urlDecode, base64urlEncode, concatBytes, field, randomBytes, subtle, u32be, utf8, type Bytes } from './bytes';
import { hkdfAesKey } from './hkdf';
import { MEDIA_KEY_LENGTH } from './keys';
import { FRAME_PROOF_KEY_LENGTH } from './frame-proof';
import { MAX_GENERATION, SENDER_CHAIN_LABELS, type SenderKey } from './sender-chain';

export { FOLLOW_GENERATIONS, ratchetSenderKey, senderKid, senderMediaBaseKey, type SenderKey } from './sender-chain';

export const SENDER_KEY_LABELS = {
  /** The seal that carries a sender key to one receiver. */
  seal: 'enclave sender key seal',
  ...SENDER_CHAIN_LABELS,
  aad: 'enclave sender key v1',
} as const;

const NONCE_LENGTH = 12;

/** Who seals to whom, and for which room: bound into the seal, so a box opens only where it was meant. */
export interface SealContext {
  roomId: string;
  senderId: string;
  receiverId: string;
}

export function generateSenderKey(generation: number): SenderKey {
  if (!Number.isInteger(generation) || generation < 0 || generation > MAX_GENERATION) throw new RangeError('generation out of range');
  return { generation, key: randomBytes(MEDIA_KEY_LENGTH) };
}

/**
 * AES-256-GCM key that seals sender keys from `senderId` to `receiverId`:
 * HKDF(ECDH pair secret, salt = "", info = label ‖ sender ‖ receiver). Distinct from the data
 * channel's key (its own label), so neither's messages can be replayed as the other's. Not salted
 * with the root R, unlike the mesh's keys: a removal moves R to a new epoch at the same moment
 * as it rotates sender keys, and a box sealed under the new R would not open for a receiver that
 * has not had the host's rekey yet. The pair secret needs no R: its ECDH keys are fresh per page
 * and were accepted only under an announcement tagged with R (docs/e2ee-crypto.md "Sender keys").
 */
export function deriveSealKey(pair: CryptoKey, senderId: string, receiverId: string): Promise<CryptoKey> {
  return hkdfAesKey(pair, new Uint8Array(0), concatBytes(utf8(SENDER_KEY_LABELS.seal), field(senderId), field(receiverId)));
}

function aad(context: SealContext, generation: number): Bytes {
  return concatBytes(utf8(SENDER_KEY_LABELS.aad), field(context.roomId), field(context.senderId), field(context.receiverId), u32be(generation));
}

/**
 * The box for one receiver: base64url(nonce ‖ AES-256-GCM(key ‖ proof key)), AAD binding room,
 * both ids and the generation; the frame-proof public key is optional (the bench's bots sign nothing).
 */
export async function sealSenderKey(sealKey: CryptoKey, context: SealContext, senderKey: SenderKey): Promise<string> {
  const nonce = randomBytes(NONCE_LENGTH);
  const sealed = new Uint8Array(
    await subtle().encrypt(
      { name: 'AES-GCM', iv: nonce, additionalData: aad(context, senderKey.generation) },
      sealKey,
      concatBytes(senderKey.key, senderKey.proof ?? new Uint8Array(0)),
    ),
  );
  return base64urlEncode(concatBytes(nonce, sealed));
}

/** The sender key in a box, or null when it was not sealed for this context and generation (or was altered). */
export async function openSenderKey(sealKey: CryptoKey, context: SealContext, generation: number, box: string): Promise<SenderKey | null> {
  if (!Number.isInteger(generation) || generation < 0 || generation > MAX_GENERATION) return null;
  const bytes = base64urlDecode(box);
  const bare = NONCE_LENGTH + MEDIA_KEY_LENGTH + 16;
  if (!bytes || (bytes.length !== bare && bytes.length !== bare + FRAME_PROOF_KEY_LENGTH)) return null;
  try {
    const opened = new Uint8Array(
      await subtle().decrypt(
        { name: 'AES-GCM', iv: bytes.subarray(0, NONCE_LENGTH), additionalData: aad(context, generation) },
        sealKey,
        bytes.subarray(NONCE_LENGTH),
      ),
    );
    const key = opened.slice(0, MEDIA_KEY_LENGTH);
    return opened.length > MEDIA_KEY_LENGTH ? { generation, key, proof: opened.slice(MEDIA_KEY_LENGTH) } : { generation, key };
  } catch {
    return null;
  }
}

/** Our key sealed for one receiver, under the seal key of our pair secret with them. */
export async function sealSenderKeyFor(pair: CryptoKey, context: SealContext, senderKey: SenderKey): Promise<string> {
  return sealSenderKey(await deriveSealKey(pair, context.senderId, context.receiverId), context, senderKey);
}

/** A sender's key from its box, under the seal key of our pair secret with it; null if it does not open. */
export async function openSenderKeyFrom(pair: CryptoKey, context: SealContext, generation: number, box: string): Promise<SenderKey | null> {
  return openSenderKey(await deriveSealKey(pair, context.senderId, context.receiverId), context, generation, box);
}
