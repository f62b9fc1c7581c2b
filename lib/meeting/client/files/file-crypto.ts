// File chunks under a per-file key (docs/meetings.md "Files"). The key is random, made for one
// transfer to one person, and travels inside the file offer, which the pair's data key seals
// (docs/e2ee-crypto.md), so the server and any relay see neither key nor bytes. One key per
// transfer makes the chunk index a safe nonce: no two chunks under one key share it.
// Wire form of a chunk: index (4 bytes BE) ‖ AES-256-GCM ciphertext ‖ 16-byte tag,
// AAD = "enclave file v1" ‖ field(transfer id) ‖ index (8 bytes BE).
import { base64urlDecode, base64urlEncode, concatBytes, field, randomBytes, subtle, u32be, u64be, utf8, type Bytes } from '@/lib/meeting/e2ee/bytes';

const FILE_CONTEXT = 'enclave file v1';
const INDEX_LENGTH = 4;
const TAG_LENGTH = 16;
/** Plain bytes per chunk: well under every browser's SCTP message limit (Chromium 256 KiB). */
export const CHUNK_BYTES = 64 * 1024;

export interface FileKey {
  /** base64url, 43 characters: what the offer carries. */
  encoded: string;
  key: CryptoKey;
}

export async function newFileKey(): Promise<FileKey> {
  const raw = randomBytes(32);
  return { encoded: base64urlEncode(raw), key: await importFileKey(raw) };
}

/** Null when the text is not a 32-byte key. */
export async function fileKeyFrom(encoded: string): Promise<FileKey | null> {
  const raw = base64urlDecode(encoded);
  if (!raw || raw.length !== 32) return null;
  return { encoded, key: await importFileKey(raw) };
}

function importFileKey(raw: Bytes): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

function nonceFor(index: number): Bytes {
  return concatBytes(new Uint8Array(4), u64be(index));
}

function aadFor(transferId: string, index: number): Bytes {
  return concatBytes(utf8(FILE_CONTEXT), field(transferId), u64be(index));
}

export async function sealChunk(key: CryptoKey, transferId: string, index: number, plain: Uint8Array<ArrayBuffer>): Promise<Bytes> {
  const sealed = await subtle().encrypt({ name: 'AES-GCM', iv: nonceFor(index), additionalData: aadFor(transferId, index) }, key, plain);
  return concatBytes(u32be(index), new Uint8Array(sealed));
}

/**
 * The plain bytes of chunk `expected`, or null: a chunk out of order, cut, altered or sealed for
 * another transfer is refused (the channel is ordered and reliable, so that is an attack or a bug).
 */
export async function openChunk(key: CryptoKey, transferId: string, expected: number, data: Bytes): Promise<Bytes | null> {
  if (data.length < INDEX_LENGTH + TAG_LENGTH) return null;
  const index = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0);
  if (index !== expected) return null;
  try {
    const plain = await subtle().decrypt({ name: 'AES-GCM', iv: nonceFor(index), additionalData: aadFor(transferId, index) }, key, data.subarray(INDEX_LENGTH));
    return new Uint8Array(plain);
  } catch {
    return null;
  }
}

/** How many chunks a file of `size` bytes takes. */
export function chunkCount(size: number): number {
  return Math.ceil(size / CHUNK_BYTES);
}

/** SHA-256 as lowercase hex: the offer's promise, checked on arrival. */
export async function sha256Hex(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await subtle().digest('SHA-256', data));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
