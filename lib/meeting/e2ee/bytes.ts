// Byte helpers shared by the E2EE modules. Pure: no DOM, no Node APIs, so the same code runs in
// the page, in an encoded-transform worker and in Node's WebCrypto for tests.

/** A byte array backed by a plain ArrayBuffer: what WebCrypto accepts as a BufferSource. */
export type Bytes = Uint8Array<ArrayBuffer>;

export function subtle(): SubtleCrypto {
  return globalThis.crypto.subtle;
}

export function randomBytes(length: number): Bytes {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

const encoder = new TextEncoder();

export function utf8(text: string): Bytes {
  return encoder.encode(text) as Bytes;
}

export function concatBytes(...parts: Uint8Array[]): Bytes {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function u16be(value: number): Bytes {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) throw new RangeError('u16 out of range');
  return new Uint8Array([value >>> 8, value & 0xff]);
}

export function u32be(value: number): Bytes {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError('u32 out of range');
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

/** 8-byte big-endian encoding of a safe non-negative integer. */
export function u64be(value: number | bigint): Bytes {
  const big = BigInt(value);
  if (big < BigInt(0) || big > BigInt('0xffffffffffffffff')) throw new RangeError('u64 out of range');
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, big);
  return out;
}

/**
 * Length-prefixed field (2-byte big-endian length, then the bytes). Concatenating prefixed fields
 * is injective, so two different (sender, receiver, mid) triples can never yield the same label.
 */
export function field(value: string | Uint8Array): Bytes {
  const bytes = typeof value === 'string' ? utf8(value) : value;
  return concatBytes(u16be(bytes.length), bytes);
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

export function fromHex(hex: string): Bytes {
  const clean = hex.replace(/\s+/g, '');
  if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) throw new RangeError('invalid hex');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url without padding (RFC 4648 §5). Hand-rolled so decoding can be strict, and no binary strings. */
export function base64urlEncode(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64URL[n >>> 18]! + B64URL[(n >>> 12) & 63]! + B64URL[(n >>> 6) & 63]! + B64URL[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += B64URL[n >>> 18]! + B64URL[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64URL[n >>> 18]! + B64URL[(n >>> 12) & 63]! + B64URL[(n >>> 6) & 63]!;
  }
  return out;
}

/** Strict decoder: only the URL-safe alphabet, no padding, canonical trailing bits; null otherwise. */
export function base64urlDecode(text: string): Bytes | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of text) {
    value = (value << 6) | B64URL.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[index] = (value >>> bits) & 0xff;
      index += 1;
      value &= (1 << bits) - 1;
    }
  }
  // Leftover bits must be zero, so each byte string has exactly one encoding.
  if (value !== 0) return null;
  return out;
}

/** Unsigned byte-wise ordering, used to put the two sides of a pair in a fixed order. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}
