// Data-channel messages (chat, file chunks as JSON strings) under the pairwise "enclave data" key.
// Wire format: seq (8 bytes BE) ‖ nonce (12 random bytes) ‖ AES-256-GCM ciphertext ‖ 16-byte tag.
import { concatBytes, field, randomBytes, subtle, u64be, utf8, type Bytes } from './bytes';

const DATA_CONTEXT = 'enclave data v1';
const SEQ_LENGTH = 8;
const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The sender and sequence number are authenticated, so a message cannot be re-attributed or renumbered. */
function aadFor(senderId: string, seq: number): Bytes {
  return concatBytes(utf8(DATA_CONTEXT), field(senderId), u64be(seq));
}

export async function sealDataMessage(key: CryptoKey, senderId: string, seq: number, text: string): Promise<Bytes> {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError('sequence out of range');
  // Random 96-bit nonces: safe far beyond any chat's message count (2^32 per key).
  const nonce = randomBytes(NONCE_LENGTH);
  const sealed = await subtle().encrypt({ name: 'AES-GCM', iv: nonce, additionalData: aadFor(senderId, seq) }, key, utf8(text));
  return concatBytes(u64be(seq), nonce, new Uint8Array(sealed));
}

/** Null for anything that does not authenticate or is not valid UTF-8. */
export async function openDataMessage(key: CryptoKey, senderId: string, data: Bytes): Promise<{ seq: number; text: string } | null> {
  if (data.length < SEQ_LENGTH + NONCE_LENGTH + TAG_LENGTH) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const seq = Number(view.getBigUint64(0));
  if (!Number.isSafeInteger(seq)) return null;
  const nonce = data.subarray(SEQ_LENGTH, SEQ_LENGTH + NONCE_LENGTH);
  try {
    const plain = await subtle().decrypt({ name: 'AES-GCM', iv: nonce, additionalData: aadFor(senderId, seq) }, key, data.subarray(SEQ_LENGTH + NONCE_LENGTH));
    return { seq, text: decoder.decode(plain) };
  } catch {
    return null;
  }
}

/** One peer's end of a channel: numbers outgoing messages and refuses replayed or reordered ones. */
export class DataChannelCipher {
  #sendSeq = 0;
  #lastReceived = -1;

  constructor(
    private readonly sendKey: CryptoKey,
    private readonly receiveKey: CryptoKey,
    readonly selfId: string,
    readonly peerId: string,
  ) {}

  seal(text: string): Promise<Bytes> {
    const seq = this.#sendSeq;
    this.#sendSeq += 1;
    return sealDataMessage(this.sendKey, this.selfId, seq, text);
  }

  async open(data: Bytes): Promise<string | null> {
    const message = await openDataMessage(this.receiveKey, this.peerId, data);
    // Data channels are ordered and reliable here, so anything not strictly newer is an attack.
    if (!message || message.seq <= this.#lastReceived) return null;
    this.#lastReceived = message.seq;
    return message.text;
  }
}
