// Frames whose sender is proven (docs/e2ee-crypto.md "Sender proof"): through the SFU every receiver
// holds a sender's key and could seal frames in its name (RFC 9605 §9.5), so each sender also
// signs every sealed frame with a key only it holds. Its public half travels inside the sealed
// sender-key box (sender-keys.ts), which only the sender could have sealed for us under our pair
// secret: the key is bound to the identity the safety code covers. ECDSA P-256, as the signals.
import { concatBytes, utf8, type Bytes } from './bytes';
import { exportSigningPublicKey, generateSigningKeyPair, importSigningPublicKey, sign, SIGNATURE_LENGTH, verify } from './signing';

/** Signed with the frame, so a signature of anything else (a signal) never passes for one. */
const LABEL = utf8('enclave frame proof v1');
/** What a raw P-256 public key takes (uncompressed point). */
export const FRAME_PROOF_KEY_LENGTH = 65;
/** What the proof adds to each frame. */
export const FRAME_PROOF_LENGTH = SIGNATURE_LENGTH;

/** Fresh per page: the private half never leaves the worker that signs. */
export async function generateFrameProofKey(): Promise<{ privateKey: CryptoKey; publicKey: Bytes }> {
  const pair = await generateSigningKeyPair();
  return { privateKey: pair.privateKey, publicKey: await exportSigningPublicKey(pair.publicKey) };
}

export function importFrameProofKey(raw: Bytes): Promise<CryptoKey> {
  return importSigningPublicKey(raw);
}

/** The sealed frame with its signature after it: sealed ‖ ECDSA(label ‖ sealed). */
export async function proveFrame(privateKey: CryptoKey, sealed: Bytes): Promise<Bytes> {
  return concatBytes(sealed, await sign(privateKey, concatBytes(LABEL, sealed)));
}

/** The sealed frame without its signature if the signature is the sender's, else null (dropped). */
export async function checkFrame(publicKey: CryptoKey, data: Bytes): Promise<Bytes | null> {
  if (data.length <= FRAME_PROOF_LENGTH) return null;
  const sealed = data.subarray(0, data.length - FRAME_PROOF_LENGTH);
  const ok = await verify(publicKey, data.subarray(data.length - FRAME_PROOF_LENGTH), concatBytes(LABEL, sealed));
  return ok ? new Uint8Array(sealed) : null;
}
