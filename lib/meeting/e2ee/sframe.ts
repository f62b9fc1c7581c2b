// RFC 9605 SFrame for the one cipher suite Enclave uses: AES_256_GCM_SHA512_128 (0x0005).
// KID and CTR are bigint here because the header format allows the full 64-bit range; the media
// path (frame.ts) keeps its counter as a number and converts once per frame.
import { concatBytes, subtle, u64be, utf8, u16be, type Bytes } from './bytes';
import { hkdf, hkdfAesKey, importHkdfKey } from './hkdf';

export const CIPHER_SUITE = 0x0005;
/** AEAD constants of the suite (RFC 9605 Table 1): key, nonce and tag sizes in bytes. */
export const NK = 32;
export const NN = 12;
export const NT = 16;
// A header is at most 17 bytes: the config byte, up to 8 KID bytes and up to 8 CTR bytes.

const U64_MAX = (BigInt(1) << BigInt(64)) - BigInt(1);
const ZERO = BigInt(0);
const EIGHT = BigInt(8);
const BYTE = BigInt(0xff);

/** A derived SFrame key: the AES key stays inside WebCrypto (non-extractable); the salt is public-ish nonce material. */
export interface SFrameKey {
  kid: bigint;
  key: CryptoKey;
  salt: Bytes;
}

// --- header (RFC 9605 §4.3) -------------------------------------------------------------------

function byteLength(value: bigint): number {
  let length = 1;
  for (let v = value >> EIGHT; v > ZERO; v >>= EIGHT) length += 1;
  return length;
}

function writeBig(out: Uint8Array, offset: number, value: bigint, length: number): void {
  let v = value;
  for (let i = length - 1; i >= 0; i -= 1) {
    out[offset + i] = Number(v & BYTE);
    v >>= EIGHT;
  }
}

function readBig(data: Uint8Array, offset: number, length: number): bigint {
  let v = ZERO;
  for (let i = 0; i < length; i += 1) v = (v << EIGHT) | BigInt(data[offset + i]!);
  return v;
}

/** Config byte X|KKK|Y|CCC, then KID and CTR in minimal big-endian form when they exceed 7. */
export function encodeHeader(kid: bigint, ctr: bigint): Bytes {
  if (kid < ZERO || kid > U64_MAX || ctr < ZERO || ctr > U64_MAX) throw new RangeError('KID/CTR out of range');
  const kidLength = kid > BigInt(7) ? byteLength(kid) : 0;
  const ctrLength = ctr > BigInt(7) ? byteLength(ctr) : 0;
  const out = new Uint8Array(1 + kidLength + ctrLength);
  const k = kidLength > 0 ? 0x80 | ((kidLength - 1) << 4) : Number(kid) << 4;
  const c = ctrLength > 0 ? 0x08 | (ctrLength - 1) : Number(ctr);
  out[0] = k | c;
  if (kidLength > 0) writeBig(out, 1, kid, kidLength);
  if (ctrLength > 0) writeBig(out, 1 + kidLength, ctr, ctrLength);
  return out;
}

export interface Header {
  kid: bigint;
  ctr: bigint;
  /** Encoded length in bytes. */
  length: number;
}

/**
 * Parses a header at `offset`. Returns null if the data is too short or the encoding is not
 * minimal: accepting two encodings of one (KID, CTR) would let a relay change the header bytes.
 */
export function decodeHeader(data: Uint8Array, offset = 0): Header | null {
  const config = data[offset];
  if (config === undefined) return null;
  const kidExtended = (config & 0x80) !== 0;
  const ctrExtended = (config & 0x08) !== 0;
  const kidLength = kidExtended ? ((config >> 4) & 7) + 1 : 0;
  const ctrLength = ctrExtended ? (config & 7) + 1 : 0;
  const length = 1 + kidLength + ctrLength;
  if (data.length < offset + length) return null;
  const kid = kidExtended ? readBig(data, offset + 1, kidLength) : BigInt((config >> 4) & 7);
  const ctr = ctrExtended ? readBig(data, offset + 1 + kidLength, ctrLength) : BigInt(config & 7);
  if (kidExtended && (kid <= BigInt(7) || byteLength(kid) !== kidLength)) return null;
  if (ctrExtended && (ctr <= BigInt(7) || byteLength(ctr) !== ctrLength)) return null;
  return { kid, ctr, length };
}

// --- key schedule (RFC 9605 §4.4.2) -----------------------------------------------------------

/** "SFrame 1.0 Secret key " + KID (8-byte BE) + cipher_suite (2-byte BE); likewise for the salt. */
export function sframeLabels(kid: bigint): { keyLabel: Bytes; saltLabel: Bytes } {
  const tail = concatBytes(u64be(kid), u16be(CIPHER_SUITE));
  return {
    keyLabel: concatBytes(utf8('SFrame 1.0 Secret key '), tail),
    saltLabel: concatBytes(utf8('SFrame 1.0 Secret salt '), tail),
  };
}

const EMPTY = new Uint8Array(0);

/** sframe_key and sframe_salt as bytes; used by tests to check the RFC vectors. */
export async function deriveKeyAndSalt(baseKey: Bytes, kid: bigint): Promise<{ key: Bytes; salt: Bytes }> {
  const { keyLabel, saltLabel } = sframeLabels(kid);
  const ikm = await importHkdfKey(baseKey);
  const [key, salt] = await Promise.all([hkdf(ikm, EMPTY, keyLabel, NK), hkdf(ikm, EMPTY, saltLabel, NN)]);
  return { key, salt };
}

/** The key used for frames: same derivation, but the AES key is non-extractable. Import once per KID. */
export async function deriveSFrameKey(baseKey: Bytes | CryptoKey, kid: bigint): Promise<SFrameKey> {
  const { keyLabel, saltLabel } = sframeLabels(kid);
  const ikm = baseKey instanceof Uint8Array ? await importHkdfKey(baseKey) : baseKey;
  const [key, salt] = await Promise.all([hkdfAesKey(ikm, EMPTY, keyLabel), hkdf(ikm, EMPTY, saltLabel, NN)]);
  return { kid, key, salt };
}

// --- AEAD (RFC 9605 §4.4.3-4.4.4) -------------------------------------------------------------

/** nonce = salt XOR CTR, with CTR big-endian and left-padded to Nn bytes. */
export function nonceFor(salt: Uint8Array, ctr: bigint | number): Bytes {
  const nonce = new Uint8Array(NN);
  nonce.set(salt);
  if (typeof ctr === 'number') {
    // Per-frame path: no BigInt, no DataView. Safe integers split into two 32-bit halves.
    if (!Number.isSafeInteger(ctr) || ctr < 0) throw new RangeError('CTR out of range');
    const low = ctr >>> 0;
    const high = Math.floor(ctr / 0x100000000);
    for (let i = 0; i < 4; i += 1) {
      nonce[NN - 1 - i]! ^= (low >>> (8 * i)) & 0xff;
      nonce[NN - 5 - i]! ^= (high >>> (8 * i)) & 0xff;
    }
    return nonce;
  }
  let v = ctr;
  for (let i = NN - 1; i >= NN - 8 && v > ZERO; i -= 1) {
    nonce[i]! ^= Number(v & BYTE);
    v >>= EIGHT;
  }
  return nonce;
}

export function aeadSeal(key: SFrameKey, ctr: bigint | number, aad: Bytes, plaintext: Bytes): Promise<ArrayBuffer> {
  return subtle().encrypt({ name: 'AES-GCM', iv: nonceFor(key.salt, ctr), additionalData: aad, tagLength: NT * 8 }, key.key, plaintext);
}

/** Null on any authentication failure: callers drop the frame, never pass it on. */
export async function aeadOpen(key: SFrameKey, ctr: bigint | number, aad: Bytes, ciphertext: Bytes): Promise<ArrayBuffer | null> {
  if (ciphertext.length < NT) return null;
  try {
    return await subtle().decrypt({ name: 'AES-GCM', iv: nonceFor(key.salt, ctr), additionalData: aad, tagLength: NT * 8 }, key.key, ciphertext);
  } catch {
    return null;
  }
}

/** RFC 9605 encrypt: header ‖ AEAD.Encrypt(key, nonce, header ‖ metadata, plaintext). */
export async function sframeEncrypt(key: SFrameKey, ctr: bigint, metadata: Bytes, plaintext: Bytes): Promise<Bytes> {
  const header = encodeHeader(key.kid, ctr);
  const sealed = await aeadSeal(key, ctr, concatBytes(header, metadata), plaintext);
  return concatBytes(header, new Uint8Array(sealed));
}

/** RFC 9605 decrypt. Unknown KID, bad header or failed tag all give null. */
export async function sframeDecrypt(lookup: (kid: bigint) => SFrameKey | undefined, metadata: Bytes, data: Bytes): Promise<Bytes | null> {
  const header = decodeHeader(data);
  if (!header) return null;
  const key = lookup(header.kid);
  if (!key) return null;
  const aad = concatBytes(data.subarray(0, header.length), metadata);
  const opened = await aeadOpen(key, header.ctr, aad, data.subarray(header.length));
  return opened ? new Uint8Array(opened) : null;
}
