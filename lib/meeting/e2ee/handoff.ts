// Key handoff to a newcomer who arrived without #k (e.g. from a link the server e-mailed): the
// newcomer posts an ephemeral ECDH key, a holder of S encrypts S and the epoch to it. The server
// relays both messages, so both sides can compare a code derived from the exchanged public keys.
import { base64urlDecode, base64urlEncode, concatBytes, field, randomBytes, subtle, u32be, utf8, type Bytes } from './bytes';
import { hkdfAesKey } from './hkdf';
import { derivePairSecret, exportPublicKey, generateEcdhKeyPair, importEcdhPublicKey, ROOM_SECRET_LENGTH } from './keys';
import { renderDigits, renderEmoji } from './safety-code';

const HANDOFF_LABEL = 'enclave handoff';
const CODE_CONTEXT = 'enclave handoff code v1';
const NONCE_LENGTH = 12;

export interface HandoffContext {
  roomId: string;
  newcomerId: string;
  holderId: string;
}

/** Kept by the newcomer until a package arrives; the private key cannot be exported. */
export interface HandoffRequest {
  privateKey: CryptoKey;
  publicKey: Bytes;
}

/** What the holder sends back (base64url fields, ready for JSON signaling). */
export interface HandoffPackage {
  holderKey: string;
  /** nonce ‖ AES-256-GCM(S ‖ epoch) ‖ tag */
  box: string;
}

/** ~50 bits of digits and 48 bits of emoji: too many for a relay to grind a match while the newcomer waits. */
export interface HandoffCode {
  digits: string;
  emoji: Array<readonly [emoji: string, name: string]>;
}

export async function createHandoffRequest(): Promise<HandoffRequest> {
  const pair = await generateEcdhKeyPair();
  return { privateKey: pair.privateKey, publicKey: await exportPublicKey(pair.publicKey) };
}

/** Binds the room, both ids and both public keys; used as HKDF info, AAD and code input. */
function transcript(context: HandoffContext, newcomerKey: Bytes, holderKey: Bytes): Bytes {
  return concatBytes(field(context.roomId), field(context.newcomerId), field(context.holderId), field(newcomerKey), field(holderKey));
}

async function handoffKey(privateKey: CryptoKey, peerKey: Bytes, info: Bytes): Promise<CryptoKey> {
  const pair = await derivePairSecret(privateKey, await importEcdhPublicKey(peerKey));
  return hkdfAesKey(pair, new Uint8Array(0), concatBytes(utf8(HANDOFF_LABEL), info));
}

export async function handoffCode(context: HandoffContext, newcomerKey: Bytes, holderKey: Bytes): Promise<HandoffCode> {
  const input = concatBytes(utf8(CODE_CONTEXT), transcript(context, newcomerKey, holderKey));
  const digest = new Uint8Array(await subtle().digest('SHA-512', input));
  return { digits: renderDigits(digest, 3), emoji: renderEmoji(digest.subarray(15), 8) };
}

/** Holder side: encrypts S and the epoch to the newcomer's key with a fresh ephemeral key of its own. */
export async function sealHandoff(
  context: HandoffContext,
  newcomerKey: Bytes,
  secret: Bytes,
  epoch: number,
): Promise<{ handoff: HandoffPackage; code: HandoffCode }> {
  if (secret.length !== ROOM_SECRET_LENGTH) throw new RangeError('room secret must be 32 bytes');
  const ephemeral = await generateEcdhKeyPair();
  const holderKey = await exportPublicKey(ephemeral.publicKey);
  const info = transcript(context, newcomerKey, holderKey);
  const key = await handoffKey(ephemeral.privateKey, newcomerKey, info);
  const nonce = randomBytes(NONCE_LENGTH);
  const sealed = await subtle().encrypt({ name: 'AES-GCM', iv: nonce, additionalData: info }, key, concatBytes(secret, u32be(epoch)));
  return {
    handoff: {
      holderKey: base64urlEncode(holderKey),
      box: base64urlEncode(concatBytes(nonce, new Uint8Array(sealed))),
    },
    code: await handoffCode(context, newcomerKey, holderKey),
  };
}

/** Newcomer side: null if anything was tampered with or the package was meant for another key. */
export async function openHandoff(
  context: HandoffContext,
  request: HandoffRequest,
  handoff: HandoffPackage,
): Promise<{ secret: Bytes; epoch: number; code: HandoffCode } | null> {
  const holderKey = base64urlDecode(handoff.holderKey);
  const box = base64urlDecode(handoff.box);
  if (!holderKey || holderKey.length !== 65 || !box || box.length <= NONCE_LENGTH) return null;
  const info = transcript(context, request.publicKey, holderKey);
  try {
    const key = await handoffKey(request.privateKey, holderKey, info);
    const plain = new Uint8Array(
      await subtle().decrypt({ name: 'AES-GCM', iv: box.subarray(0, NONCE_LENGTH), additionalData: info }, key, box.subarray(NONCE_LENGTH)),
    );
    if (plain.length !== ROOM_SECRET_LENGTH + 4) return null;
    const epoch = new DataView(plain.buffer).getUint32(ROOM_SECRET_LENGTH);
    return {
      secret: plain.slice(0, ROOM_SECRET_LENGTH),
      epoch,
      code: await handoffCode(context, request.publicKey, holderKey),
    };
  } catch {
    // Invalid point, wrong key or failed tag.
    return null;
  }
}
