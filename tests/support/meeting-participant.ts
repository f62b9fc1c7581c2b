// A participant's MeetingCrypto for tests without a browser: fresh key pairs, a random DTLS
// fingerprint, the given frame backend, and the room secret in use.
import { randomBytes } from '@/lib/meeting/e2ee/bytes';
import { exportPublicKey, generateEcdhKeyPair } from '@/lib/meeting/e2ee/keys';
import { exportSigningPublicKey, generateSigningKeyPair } from '@/lib/meeting/e2ee/signing';
import { MeetingCrypto } from '@/lib/meeting/client/keys/meeting-crypto';
import type { FrameBackend } from '@/lib/meeting/client/frames/frame-backends';

export async function cryptoParticipant(id: string, frames: FrameBackend, secret: Uint8Array): Promise<MeetingCrypto> {
  const [ecdh, signing] = await Promise.all([generateEcdhKeyPair(), generateSigningKeyPair()]);
  const [ecdhPublic, signingPublic] = await Promise.all([exportPublicKey(ecdh.publicKey), exportSigningPublicKey(signing.publicKey)]);
  const fingerprint = `sha-256 ${[...randomBytes(32)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
  const prepared = Promise.resolve({ frames, certificate: {} as RTCCertificate, fingerprint, ecdh, ecdhPublic, signing, signingPublic });
  const crypto = await MeetingCrypto.create('meeting-1', id, 'streams', null, prepared);
  await crypto.useSecret(new Uint8Array(secret), 'link');
  return crypto;
}
