// The key tree of docs/e2ee-crypto.md. Everything below the room secret S is derived with HKDF-SHA-512 under
// a distinct label, so no two uses ever share a key. Labels are pinned by known-answer tests.
import { base64urlDecode, base64urlEncode, concatBytes, field, randomBytes, subtle, u32be, utf8, type Bytes } from './bytes';
import { hkdf, hkdfAesKey, importHkdfKey } from './hkdf';

export const ROOM_SECRET_LENGTH = 32;
export const ROOT_KEY_LENGTH = 32;
export const MEDIA_KEY_LENGTH = 32;
/** OWASP's 2023 figure for PBKDF2-HMAC-SHA-256. */
export const PASSWORD_ITERATIONS = 600_000;

export const LABELS = {
  root: 'enclave root',
  passwordKey: 'enclave password key',
  passwordProof: 'enclave password proof',
  join: 'enclave join',
  media: 'enclave media',
  data: 'enclave data',
  ratchet: 'enclave ratchet',
  direction: '→',
} as const;

const EMPTY = new Uint8Array(0);

// --- room secret S and the #k= fragment ------------------------------------------------------

export function generateRoomSecret(): Bytes {
  return randomBytes(ROOM_SECRET_LENGTH);
}

export function encodeRoomSecret(secret: Uint8Array): string {
  if (secret.length !== ROOM_SECRET_LENGTH) throw new RangeError('room secret must be 32 bytes');
  return base64urlEncode(secret);
}

/** Exactly 43 base64url characters decoding to 32 bytes; anything else is null, never a shorter key. */
export function decodeRoomSecret(text: string): Bytes | null {
  if (text.length !== 43) return null;
  const bytes = base64urlDecode(text);
  return bytes && bytes.length === ROOM_SECRET_LENGTH ? bytes : null;
}

export function fragmentForSecret(secret: Uint8Array): string {
  return `#k=${encodeRoomSecret(secret)}`;
}

/** Reads `k` from a location hash such as "#k=…" or "#x=1&k=…". */
export function secretFromFragment(hash: string): Bytes | null {
  const params = hash.startsWith('#') ? hash.slice(1) : hash;
  const values = params.split('&').filter((part) => part.startsWith('k='));
  // Two k= parameters are ambiguous: refuse rather than pick one.
  if (values.length !== 1) return null;
  return decodeRoomSecret(values[0]!.slice(2));
}

/** The hash with every k= parameter removed, for history.replaceState after reading the secret. */
export function fragmentWithoutSecret(hash: string): string {
  const params = (hash.startsWith('#') ? hash.slice(1) : hash).split('&');
  const rest = params.filter((part) => part !== '' && !part.startsWith('k='));
  return rest.length > 0 ? `#${rest.join('&')}` : '';
}

// --- optional room password -------------------------------------------------------------------

/**
 * PBKDF2-SHA-256 over the NFC-normalised password (so the same password typed on any system
 * matches), salted with the room's password salt: random per password and public, so the same
 * password on two rooms, or set again on one, stretches differently. Lower iteration counts
 * exist only for tests.
 */
export async function stretchPassword(password: string, salt: string, options: { unsafeIterationsForTests?: number } = {}): Promise<Bytes> {
  const iterations = options.unsafeIterationsForTests ?? PASSWORD_ITERATIONS;
  const key = await subtle().importKey('raw', utf8(password.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
  const bits = await subtle().deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: utf8(salt), iterations }, key, 256);
  return new Uint8Array(bits);
}

/**
 * The key mixed into R and the proof shown to the server come from the stretched password under
 * different labels: the server can check the proof but learns nothing about the key.
 */
export async function passwordSecrets(stretched: Bytes): Promise<{ passwordKey: Bytes; proof: string }> {
  const ikm = await importHkdfKey(stretched);
  const [passwordKey, proof] = await Promise.all([hkdf(ikm, EMPTY, utf8(LABELS.passwordKey), 32), hkdf(ikm, EMPTY, utf8(LABELS.passwordProof), 32)]);
  return { passwordKey, proof: base64urlEncode(proof) };
}

// --- root R -----------------------------------------------------------------------------------

export interface RootInput {
  secret: Bytes;
  /** From passwordSecrets(); absent when the room has no password. */
  passwordKey?: Bytes;
  roomId: string;
  epoch: number;
}

/** R = HKDF-SHA-512(ikm = S ‖ passwordKey, salt = roomId ‖ epoch (u32 BE), info = "enclave root"). */
export function deriveRoot({ secret, passwordKey, roomId, epoch }: RootInput): Promise<Bytes> {
  if (secret.length !== ROOM_SECRET_LENGTH) throw new RangeError('room secret must be 32 bytes');
  const ikm = concatBytes(secret, passwordKey ?? EMPTY);
  return hkdf(ikm, concatBytes(utf8(roomId), u32be(epoch)), utf8(LABELS.root), ROOT_KEY_LENGTH);
}

/** HMAC-SHA-512 key for join-announcement tags: HKDF(R, "enclave join"), non-extractable. */
export async function deriveJoinKey(root: Bytes): Promise<CryptoKey> {
  return subtle().deriveKey(
    { name: 'HKDF', hash: 'SHA-512', salt: EMPTY, info: utf8(LABELS.join) },
    await importHkdfKey(root),
    { name: 'HMAC', hash: 'SHA-512', length: 512 },
    false,
    ['sign', 'verify'],
  );
}

// --- pairwise ECDH P-256 ----------------------------------------------------------------------

/** Per-meeting ECDH key; the private half cannot be exported. */
export function generateEcdhKeyPair(): Promise<CryptoKeyPair> {
  return subtle().generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
}

/** Uncompressed point (65 bytes): the form carried in announcements and hashed into codes. */
export async function exportPublicKey(key: CryptoKey): Promise<Bytes> {
  return new Uint8Array(await subtle().exportKey('raw', key));
}

export function importEcdhPublicKey(raw: Bytes): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, { name: 'ECDH', namedCurve: 'P-256' }, true, []);
}

/** ECDH(a, B) as an HKDF key. The raw shared point is never used directly as a key. */
export async function derivePairSecret(privateKey: CryptoKey, peerPublicKey: CryptoKey): Promise<CryptoKey> {
  const shared = new Uint8Array(await subtle().deriveBits({ name: 'ECDH', public: peerPublicKey }, privateKey, 256));
  return importHkdfKey(shared);
}

function directionInfo(label: string, senderId: string, receiverId: string): Bytes {
  return concatBytes(utf8(label), field(senderId), utf8(LABELS.direction), field(receiverId));
}

/**
 * Media base key for one direction and transceiver:
 * HKDF(ECDH(a, B), salt = R, info = "enclave media" ‖ sender ‖ "→" ‖ receiver ‖ mid), fields
 * length-prefixed. It feeds SFrame's own derivation (sframe.ts) under a KID.
 */
export function deriveMediaBaseKey(pair: CryptoKey, root: Bytes, senderId: string, receiverId: string, mid: string): Promise<Bytes> {
  const info = concatBytes(directionInfo(LABELS.media, senderId, receiverId), field(mid));
  return hkdf(pair, root, info, MEDIA_KEY_LENGTH);
}

/** AES-256-GCM key for one direction of the data channel: label "enclave data", non-extractable. */
export function deriveDataKey(pair: CryptoKey, root: Bytes, senderId: string, receiverId: string): Promise<CryptoKey> {
  return hkdfAesKey(pair, root, directionInfo(LABELS.data, senderId, receiverId));
}

// --- key ids and the ratchet ------------------------------------------------------------------

const RATCHET_STEPS = 0x10000;

/** KID = epoch · 2^16 + ratchet step: receivers can tell a new epoch from a ratchet step. */
export function kidFor(epoch: number, step: number): bigint {
  if (!Number.isInteger(step) || step < 0 || step >= RATCHET_STEPS) throw new RangeError('ratchet step out of range');
  if (!Number.isInteger(epoch) || epoch < 0 || epoch > 0xffffffff) throw new RangeError('epoch out of range');
  return BigInt(epoch) * BigInt(RATCHET_STEPS) + BigInt(step);
}

export interface ChainKey {
  baseKey: Bytes;
  kid: bigint;
}

/** next_key = HKDF(key, "enclave ratchet"); the KID increments. Old keys cannot be recomputed from new ones. */
export async function ratchet({ baseKey, kid }: ChainKey): Promise<ChainKey> {
  if ((kid + BigInt(1)) % BigInt(RATCHET_STEPS) === BigInt(0)) throw new RangeError('ratchet steps exhausted: move to a new epoch');
  return {
    baseKey: await hkdf(baseKey, EMPTY, utf8(LABELS.ratchet), MEDIA_KEY_LENGTH),
    kid: kid + BigInt(1),
  };
}
