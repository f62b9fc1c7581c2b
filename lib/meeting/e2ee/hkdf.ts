// HKDF-SHA-512 (RFC 5869) through WebCrypto. Every key in the tree goes through here, so the hash
// and the byte encodings of salts and labels live in one place.
import { subtle, type Bytes } from './bytes';

const HKDF_HASH = 'SHA-512';

/** Imports input keying material for HKDF; non-extractable, so it can only be derived from. */
export function importHkdfKey(ikm: Bytes): Promise<CryptoKey> {
  return subtle().importKey('raw', ikm, 'HKDF', false, ['deriveBits', 'deriveKey']);
}

/** HKDF-Expand(HKDF-Extract(salt, ikm), info, length) in bytes. */
export async function hkdf(ikm: Bytes | CryptoKey, salt: Bytes, info: Bytes, length: number): Promise<Bytes> {
  const key = ikm instanceof Uint8Array ? await importHkdfKey(ikm) : ikm;
  const bits = await subtle().deriveBits({ name: 'HKDF', hash: HKDF_HASH, salt, info }, key, length * 8);
  return new Uint8Array(bits);
}

/** HKDF straight into a non-extractable AES-256-GCM key: the key bytes never reach JavaScript. */
export async function hkdfAesKey(ikm: Bytes | CryptoKey, salt: Bytes, info: Bytes): Promise<CryptoKey> {
  const key = ikm instanceof Uint8Array ? await importHkdfKey(ikm) : ikm;
  return subtle().deriveKey({ name: 'HKDF', hash: HKDF_HASH, salt, info }, key, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/**
 * HKDF-Extract alone (HMAC-SHA-512 keyed with the salt). Only for checking intermediate values
 * against published vectors; an empty salt is replaced by HashLen zero bytes, which HMAC treats
 * identically (RFC 5869 §2.2) and which WebCrypto accepts as an HMAC key.
 */
export async function hkdfExtract(salt: Bytes, ikm: Bytes): Promise<Bytes> {
  const keyBytes = salt.length > 0 ? salt : new Uint8Array(64);
  const key = await subtle().importKey('raw', keyBytes, { name: 'HMAC', hash: HKDF_HASH }, false, ['sign']);
  return new Uint8Array(await subtle().sign('HMAC', key, ikm));
}
