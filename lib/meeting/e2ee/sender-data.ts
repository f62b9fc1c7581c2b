// The call's data messages through the SFU (issue 46; docs/e2ee-crypto.md "Messages through the
// SFU"): a message to everyone is sealed once under the sender's sender key (sender-keys.ts), so it
// opens for exactly those who can open the sender's frames, and signed with the sender's
// frame-proof key (frame-proof.ts) under a label of its own, so another participant holding the
// same sender key still cannot write in the sender's name, and a frame's signature never passes
// for a message's. A message to one participant is sealed under a key of the pair secret alone,
// as the data channels are (data-channel.ts). Pure WebCrypto, as the rest of lib/meeting/e2ee.
import { concatBytes, field, randomBytes, subtle, u32be, u64be, utf8, type Bytes } from './bytes';
import { openDataMessage, sealDataMessage } from './data-channel';
import { importFrameProofKey } from './frame-proof';
import { hkdfAesKey } from './hkdf';
import type { SenderKey } from './sender-chain';
import { sign, SIGNATURE_LENGTH, verify } from './signing';

export const SENDER_DATA_LABELS = {
  /** The AES key of a sender's messages to everyone, from its sender key. */
  key: 'enclave sender data',
  aad: 'enclave sender data v1',
  /** What the signature covers starts with this: never the frame proof's label. */
  proof: 'enclave data proof v1',
  /** The key of a message to one participant, from the pair secret. */
  direct: 'enclave sender data direct',
} as const;

/** The first byte: sealed for everyone under the sender key, or for one under the pair's key. */
export const TO_EVERYONE = 0x01;
export const TO_ONE = 0x02;

const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** What a sender seals with: its id, its sender key in use, and the private half of its frame-proof key. */
export interface DataSealer {
  senderId: string;
  key: SenderKey;
  signer: CryptoKey;
}

const dataKeys = new WeakMap<Bytes, Promise<CryptoKey>>();
const proofKeys = new WeakMap<Bytes, Promise<CryptoKey>>();

/** HKDF(sender key, info "enclave sender data"): apart from the media base keys by its label. Made once per key. */
export function senderDataKey(senderKey: Bytes): Promise<CryptoKey> {
  let key = dataKeys.get(senderKey);
  if (!key) {
    key = hkdfAesKey(senderKey, new Uint8Array(0), utf8(SENDER_DATA_LABELS.key));
    dataKeys.set(senderKey, key);
  }
  return key;
}

function proofKey(raw: Bytes): Promise<CryptoKey> {
  let key = proofKeys.get(raw);
  if (!key) {
    key = importFrameProofKey(raw);
    proofKeys.set(raw, key);
  }
  return key;
}

function aad(roomId: string, senderId: string, generation: number, seq: number): Bytes {
  return concatBytes(utf8(SENDER_DATA_LABELS.aad), field(roomId), field(senderId), u32be(generation), u64be(seq));
}

/**
 * 0x01 ‖ field(sender) ‖ u32 generation ‖ u64 seq ‖ nonce ‖ AES-256-GCM(text) ‖ ECDSA(label ‖ all
 * before it). The AAD binds the room, the sender, the generation and the number.
 */
export async function sealToEveryone(roomId: string, sealer: DataSealer, seq: number, text: string): Promise<Bytes> {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError('sequence out of range');
  const { generation } = sealer.key;
  const nonce = randomBytes(NONCE_LENGTH);
  const sealed = await subtle().encrypt(
    { name: 'AES-GCM', iv: nonce, additionalData: aad(roomId, sealer.senderId, generation, seq) },
    await senderDataKey(sealer.key.key),
    utf8(text),
  );
  const body = concatBytes(new Uint8Array([TO_EVERYONE]), field(sealer.senderId), u32be(generation), u64be(seq), nonce, new Uint8Array(sealed));
  return concatBytes(body, await sign(sealer.signer, concatBytes(utf8(SENDER_DATA_LABELS.proof), body)));
}

/**
 * The key of messages from `senderId` to `receiverId` alone: HKDF(pair secret, info = label ‖
 * sender ‖ receiver). Not salted with the root R, like the sender-key seal (sender-keys.ts
 * deriveSealKey): the host's rekey after a removal moves R and must still open.
 */
export function deriveDirectKey(pair: CryptoKey, senderId: string, receiverId: string): Promise<CryptoKey> {
  return hkdfAesKey(pair, new Uint8Array(0), concatBytes(utf8(SENDER_DATA_LABELS.direct), field(senderId), field(receiverId)));
}

/** 0x02 ‖ field(sender) ‖ field(receiver) ‖ a data-channel message (data-channel.ts) under the direct key. */
export async function sealToOne(key: CryptoKey, senderId: string, receiverId: string, seq: number, text: string): Promise<Bytes> {
  return concatBytes(new Uint8Array([TO_ONE]), field(senderId), field(receiverId), await sealDataMessage(key, senderId, seq, text));
}

/** A message as it came, before anything is checked: who it says it is from, and its parts. */
export type SenderDataEnvelope =
  | { kind: 'everyone'; sender: string; generation: number; seq: number; nonce: Bytes; ciphertext: Bytes; signed: Bytes; signature: Bytes }
  | { kind: 'one'; sender: string; receiver: string; body: Bytes };

/** Reads a length-prefixed field at `at`: its text and where the next part starts; null if it runs past the end or is not UTF-8. */
function readField(bytes: Bytes, at: number): [string, number] | null {
  if (at + 2 > bytes.length) return null;
  const length = (bytes[at]! << 8) | bytes[at + 1]!;
  const end = at + 2 + length;
  if (end > bytes.length) return null;
  try {
    return [decoder.decode(bytes.subarray(at + 2, end)), end];
  } catch {
    return null;
  }
}

export function parseSenderData(bytes: Bytes): SenderDataEnvelope | null {
  const sender = readField(bytes, 1);
  if (!sender || !sender[0]) return null;
  if (bytes[0] === TO_ONE) {
    const receiver = readField(bytes, sender[1]);
    return receiver ? { kind: 'one', sender: sender[0], receiver: receiver[0], body: bytes.slice(receiver[1]) } : null;
  }
  if (bytes[0] !== TO_EVERYONE) return null;
  const at = sender[1];
  const end = bytes.length - SIGNATURE_LENGTH;
  if (end < at + 4 + 8 + NONCE_LENGTH + TAG_LENGTH) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const seq = Number(view.getBigUint64(at + 4));
  if (!Number.isSafeInteger(seq)) return null;
  return {
    kind: 'everyone',
    sender: sender[0],
    generation: view.getUint32(at),
    seq,
    nonce: bytes.slice(at + 12, at + 12 + NONCE_LENGTH),
    ciphertext: bytes.slice(at + 12 + NONCE_LENGTH, end),
    signed: bytes.slice(0, end),
    signature: bytes.slice(end),
  };
}

/** Why a message was dropped: not ours to read, altered or unsigned, a replay, or under a key we do not hold. */
export type DropReason = 'malformed' | 'forged' | 'auth' | 'replay' | 'unknown-key';

/**
 * A message to everyone under the sender key we hold for its sender and generation: the signature
 * first (a message another key holder made never reaches the cipher), then AES-GCM.
 */
export async function openToEveryone(
  roomId: string,
  envelope: Extract<SenderDataEnvelope, { kind: 'everyone' }>,
  key: SenderKey,
): Promise<{ seq: number; text: string } | DropReason> {
  if (!key.proof || !(await verify(await proofKey(key.proof), envelope.signature, concatBytes(utf8(SENDER_DATA_LABELS.proof), envelope.signed))))
    return 'forged';
  try {
    const plain = await subtle().decrypt(
      { name: 'AES-GCM', iv: envelope.nonce, additionalData: aad(roomId, envelope.sender, envelope.generation, envelope.seq) },
      await senderDataKey(key.key),
      envelope.ciphertext,
    );
    return { seq: envelope.seq, text: decoder.decode(plain) };
  } catch {
    return 'auth';
  }
}

/** A message to us alone under the direct key of its sender: its number and text, or 'auth'. */
export async function openToOne(key: CryptoKey, envelope: Extract<SenderDataEnvelope, { kind: 'one' }>): Promise<{ seq: number; text: string } | 'auth'> {
  return (await openDataMessage(key, envelope.sender, envelope.body)) ?? 'auth';
}

/** How far behind the newest number an older one may still come once (messages of one sender that crossed). */
export const REPLAY_WINDOW = 64;

/** One sender's numbers: each opens once, and none older than the window. */
export class ReplayWindow {
  private top = -1;
  private readonly seen = new Set<number>();

  fresh(seq: number): boolean {
    if (seq > this.top) return true;
    return seq > this.top - REPLAY_WINDOW && !this.seen.has(seq);
  }

  /** Only after the message authenticated: a forgery never moves the window. */
  record(seq: number) {
    this.seen.add(seq);
    if (seq <= this.top) return;
    this.top = seq;
    for (const old of this.seen) if (old <= seq - REPLAY_WINDOW) this.seen.delete(old);
  }
}
