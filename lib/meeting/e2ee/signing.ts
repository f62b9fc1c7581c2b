// Signed signaling. Each participant signs every message after the join announcement with a
// per-meeting ECDSA P-256 key; the announcement itself is tagged with HMAC-SHA-512 under the join
// key, which only holders of the room secret can compute.
import { base64urlDecode, base64urlEncode, subtle, utf8, type Bytes } from './bytes';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Canonical JSON (in the spirit of RFC 8785): object keys sorted by UTF-16 code units, no
 * whitespace, ECMAScript number formatting. Both sides must hash exactly the same bytes.
 */
export function canonicalJson(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('non-finite number in signed message');
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`).join(',')}}`;
}

export function canonicalBytes(value: JsonValue): Bytes {
  return utf8(canonicalJson(value));
}

// --- ECDSA P-256 keys -------------------------------------------------------------------------

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
export const SIGNATURE_LENGTH = 64;

/** Fresh per meeting; the private half cannot be exported. */
export function generateSigningKeyPair(): Promise<CryptoKeyPair> {
  return subtle().generateKey(ECDSA, false, ['sign', 'verify']);
}

export async function exportSigningPublicKey(key: CryptoKey): Promise<Bytes> {
  return new Uint8Array(await subtle().exportKey('raw', key));
}

export function importSigningPublicKey(raw: Bytes): Promise<CryptoKey> {
  return subtle().importKey('raw', raw, ECDSA, true, ['verify']);
}

/** WebCrypto's ECDSA output is already the raw 64-byte r ‖ s form (the "512-bit signature"). */
export async function sign(privateKey: CryptoKey, data: Bytes): Promise<Bytes> {
  return new Uint8Array(await subtle().sign(ECDSA_SHA256, privateKey, data));
}

export async function verify(publicKey: CryptoKey, signature: Bytes, data: Bytes): Promise<boolean> {
  if (signature.length !== SIGNATURE_LENGTH) return false;
  try {
    return await subtle().verify(ECDSA_SHA256, publicKey, signature, data);
  } catch {
    return false;
  }
}

// --- signed, numbered signaling messages ------------------------------------------------------

const SIGNAL_CONTEXT = 'enclave signal v1';

export interface SignedSignal {
  from: string;
  /** Null for a message to everyone (e.g. kick, rekey). */
  to: string | null;
  seq: number;
  body: JsonValue;
  /** base64url of the 64-byte signature. */
  sig: string;
}

/** The signed bytes also bind the room and the recipient, so a message cannot be replayed elsewhere. */
export function signalBytes(room: string, signal: Omit<SignedSignal, 'sig'>): Bytes {
  return canonicalBytes({
    ctx: SIGNAL_CONTEXT,
    room,
    from: signal.from,
    to: signal.to,
    seq: signal.seq,
    body: signal.body,
  });
}

/** Numbers its own messages from 1 and signs them. */
export class SignalSigner {
  #seq = 0;

  constructor(
    readonly room: string,
    readonly self: string,
    private readonly privateKey: CryptoKey,
  ) {}

  async sign(to: string | null, body: JsonValue): Promise<SignedSignal> {
    this.#seq += 1;
    const unsigned = { from: this.self, to, seq: this.#seq, body };
    const sig = await sign(this.privateKey, signalBytes(this.room, unsigned));
    return { ...unsigned, sig: base64urlEncode(sig) };
  }
}

/**
 * Verifies signals from known peers. A message is accepted only if its signature verifies, it is
 * addressed to us (or to everyone), and its number is above the last one accepted from that peer:
 * replays and reordered messages are refused.
 */
export class SignalVerifier {
  readonly #peers = new Map<string, { key: CryptoKey; lastSeq: number }>();

  constructor(
    readonly room: string,
    readonly self: string,
  ) {}

  addPeer(id: string, signingKey: CryptoKey): void {
    this.#peers.set(id, { key: signingKey, lastSeq: 0 });
  }

  removePeer(id: string): void {
    this.#peers.delete(id);
  }

  async accept(signal: SignedSignal): Promise<JsonValue | null> {
    const result = await this.check(signal);
    return result.ok ? result.body : null;
  }

  /** Like accept(), saying why a signal was refused: a bad signature is an attack, a replay may be a resend. */
  async check(signal: SignedSignal): Promise<{ ok: true; body: JsonValue } | { ok: false; reason: 'unknown-peer' | 'address' | 'replay' | 'signature' }> {
    const peer = this.#peers.get(signal.from);
    if (!peer) return { ok: false, reason: 'unknown-peer' };
    if (signal.to !== null && signal.to !== this.self) return { ok: false, reason: 'address' };
    if (!Number.isSafeInteger(signal.seq) || signal.seq <= peer.lastSeq) return { ok: false, reason: 'replay' };
    const sig = base64urlDecode(signal.sig);
    if (!sig) return { ok: false, reason: 'signature' };
    const unsigned = { from: signal.from, to: signal.to, seq: signal.seq, body: signal.body };
    if (!(await verify(peer.key, sig, signalBytes(this.room, unsigned)))) return { ok: false, reason: 'signature' };
    // Re-checked after the await: two copies verified concurrently must not both pass.
    if (signal.seq <= peer.lastSeq) return { ok: false, reason: 'replay' };
    peer.lastSeq = signal.seq;
    return { ok: true, body: signal.body };
  }
}

// --- DTLS fingerprints ------------------------------------------------------------------------

/** "sha-256 AB:CD:…" with the algorithm lower-cased and hex upper-cased; null if malformed. */
export function normalizeFingerprint(text: string): string | null {
  const match = /^([A-Za-z0-9-]+)[ \t]+((?:[0-9A-Fa-f]{2}:)*[0-9A-Fa-f]{2})$/.exec(text.trim());
  if (!match) return null;
  return `${match[1]!.toLowerCase()} ${match[2]!.toUpperCase()}`;
}

/** Every a=fingerprint line, session- and media-level, normalised (kept raw if malformed, so it never matches). */
export function fingerprintFromSdp(sdp: string): string[] {
  const lines = sdp.split(/\r?\n/).filter((line) => line.startsWith('a=fingerprint:'));
  return lines.map((line) => {
    const value = line.slice('a=fingerprint:'.length);
    return normalizeFingerprint(value) ?? value;
  });
}

/** True only if the SDP has at least one fingerprint and all of them equal the signed one. */
export function sdpMatchesFingerprint(sdp: string, signedFingerprint: string): boolean {
  const expected = normalizeFingerprint(signedFingerprint);
  const found = fingerprintFromSdp(sdp);
  return expected !== null && found.length > 0 && found.every((value) => value === expected);
}

// --- join announcement ------------------------------------------------------------------------

const JOIN_CONTEXT = 'enclave join v1';

export interface JoinAnnouncement {
  id: string;
  /** base64url raw P-256 public keys. */
  signingKey: string;
  ecdhKey: string;
  fingerprint: string;
  /** base64url HMAC-SHA-512 under the join key. */
  tag: string;
}

/** Only the four announced fields are tagged (a `tag` field, if present, is ignored). */
export function joinBytes(announcement: Omit<JoinAnnouncement, 'tag'>): Bytes {
  const { id, signingKey, ecdhKey, fingerprint } = announcement;
  return canonicalBytes({
    ctx: JOIN_CONTEXT,
    id,
    signingKey,
    ecdhKey,
    fingerprint: normalizeFingerprint(fingerprint) ?? fingerprint,
  });
}

export async function createJoinAnnouncement(
  joinKey: CryptoKey,
  parts: { id: string; signingKey: Bytes; ecdhKey: Bytes; fingerprint: string },
): Promise<JoinAnnouncement> {
  const unsigned = {
    id: parts.id,
    signingKey: base64urlEncode(parts.signingKey),
    ecdhKey: base64urlEncode(parts.ecdhKey),
    fingerprint: normalizeFingerprint(parts.fingerprint) ?? parts.fingerprint,
  };
  const tag = new Uint8Array(await subtle().sign('HMAC', joinKey, joinBytes(unsigned)));
  return { ...unsigned, tag: base64urlEncode(tag) };
}

/** WebCrypto's HMAC verify compares in constant time. */
export async function verifyJoinAnnouncement(joinKey: CryptoKey, announcement: JoinAnnouncement): Promise<boolean> {
  const tag = base64urlDecode(announcement.tag);
  if (!tag || tag.length !== 64 || normalizeFingerprint(announcement.fingerprint) === null) return false;
  return subtle().verify('HMAC', joinKey, tag, joinBytes(announcement));
}
