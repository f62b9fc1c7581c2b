/** @jest-environment node */
import { base64urlDecode, base64urlEncode, utf8 } from '@/lib/meeting/e2ee/bytes';
import { deriveJoinKey, deriveRoot, exportPublicKey, generateEcdhKeyPair } from '@/lib/meeting/e2ee/keys';
import {
  canonicalJson,
  createJoinAnnouncement,
  exportSigningPublicKey,
  fingerprintFromSdp,
  generateSigningKeyPair,
  importSigningPublicKey,
  normalizeFingerprint,
  sdpMatchesFingerprint,
  sign,
  SignalSigner,
  SignalVerifier,
  verify,
  verifyJoinAnnouncement,
  type SignedSignal,
} from '@/lib/meeting/e2ee/signing';

const FP = 'sha-256 4A:AD:B9:B1:3F:82:18:3B:54:02:12:DF:3E:5D:49:6B:19:E5:7C:AB:3C:F7:5C:8C:AB:74:E6:B9:8B:1F:DE:2E';
const FP_OTHER = 'sha-256 4A:AD:B9:B1:3F:82:18:3B:54:02:12:DF:3E:5D:49:6B:19:E5:7C:AB:3C:F7:5C:8C:AB:74:E6:B9:8B:1F:DE:2F';

function sdpWith(...fingerprints: string[]): string {
  const lines = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0'];
  for (const [i, fp] of fingerprints.entries()) lines.push(`m=${i === 0 ? 'audio' : 'video'} 9 UDP/TLS/RTP/SAVPF 111`, `a=mid:${i}`, `a=fingerprint:${fp}`);
  return `${lines.join('\r\n')}\r\n`;
}

describe('canonical JSON', () => {
  it('sorts keys at every depth, keeps array order and has no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: null, y: true }], c: 'é"' } })).toBe('{"a":{"c":"é\\"","d":[3,1,{"y":true,"z":null}]},"b":1}');
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });

  it('refuses numbers JSON cannot carry', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(RangeError);
    expect(() => canonicalJson([Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });
});

describe('ECDSA P-256 signatures', () => {
  it('are 64 raw bytes, verify, and fail on any change', async () => {
    const { privateKey, publicKey } = await generateSigningKeyPair();
    expect(privateKey.extractable).toBe(false);
    const data = utf8('offer');
    const signature = await sign(privateKey, data);
    expect(signature).toHaveLength(64);
    const imported = await importSigningPublicKey(await exportSigningPublicKey(publicKey));
    expect(await verify(imported, signature, data)).toBe(true);
    expect(await verify(imported, signature, utf8('offeR'))).toBe(false);
    const flipped = signature.slice();
    flipped[10]! ^= 1;
    expect(await verify(imported, flipped, data)).toBe(false);
    expect(await verify(imported, signature.subarray(0, 63), data)).toBe(false);
  });
});

describe('signed, numbered signaling', () => {
  async function setup() {
    const alice = await generateSigningKeyPair();
    const signer = new SignalSigner('room-1', 'alice', alice.privateKey);
    const bob = new SignalVerifier('room-1', 'bob');
    bob.addPeer('alice', alice.publicKey);
    return { alice, signer, bob };
  }

  it('accepts messages in order and returns their body', async () => {
    const { signer, bob } = await setup();
    const first = await signer.sign('bob', { type: 'offer', sdp: 'x' });
    const second = await signer.sign(null, { type: 'kick', target: 'carol' });
    expect(first.seq).toBe(1);
    expect(second.seq).toBe(2);
    expect(await bob.accept(first)).toEqual({ type: 'offer', sdp: 'x' });
    expect(await bob.accept(second)).toEqual({ type: 'kick', target: 'carol' });
  });

  it('refuses replays and out-of-order messages', async () => {
    const { signer, bob } = await setup();
    const m1 = await signer.sign('bob', { n: 1 });
    const m2 = await signer.sign('bob', { n: 2 });
    const m3 = await signer.sign('bob', { n: 3 });
    expect(await bob.accept(m1)).not.toBeNull();
    expect(await bob.accept(m1)).toBeNull();
    expect(await bob.accept(m3)).not.toBeNull();
    expect(await bob.accept(m2)).toBeNull();
    const m4 = await signer.sign('bob', { n: 4 });
    const copies = await Promise.all([m4, m4, m4].map((m) => bob.accept(m)));
    expect(copies.filter((r) => r !== null)).toHaveLength(1);
  });

  it('refuses a changed body, sequence, recipient, sender, room or signature', async () => {
    const { alice, signer, bob } = await setup();
    const message = await signer.sign('bob', { type: 'answer', sdp: 'y' });
    const variants: SignedSignal[] = [
      { ...message, body: { type: 'answer', sdp: 'z' } },
      { ...message, seq: 5 },
      { ...message, to: null },
      { ...message, from: 'mallory' },
      {
        ...message,
        sig: base64urlEncode(base64urlDecode(message.sig)!.map((b, i) => (i === 0 ? b ^ 1 : b))),
      },
      { ...message, sig: 'not base64!' },
    ];
    for (const variant of variants) expect(await bob.accept(variant)).toBeNull();
    // Same key, other room: refused.
    const elsewhere = new SignalVerifier('room-2', 'bob');
    elsewhere.addPeer('alice', alice.publicKey);
    expect(await elsewhere.accept(message)).toBeNull();
    // Addressed to someone else: refused even with a valid signature.
    const carol = new SignalVerifier('room-1', 'carol');
    carol.addPeer('alice', alice.publicKey);
    expect(await carol.accept(message)).toBeNull();
    // The untouched message still passes.
    expect(await bob.accept(message)).not.toBeNull();
  });

  it('refuses a public key swapped by the server', async () => {
    const { signer } = await setup();
    const mallory = await generateSigningKeyPair();
    const bob = new SignalVerifier('room-1', 'bob');
    bob.addPeer('alice', mallory.publicKey);
    expect(await bob.accept(await signer.sign('bob', { type: 'offer' }))).toBeNull();
    bob.removePeer('alice');
    expect(await bob.accept(await signer.sign('bob', { type: 'offer' }))).toBeNull();
  });
});

describe('DTLS fingerprints in SDP', () => {
  it('extracts every a=fingerprint line, normalised', () => {
    const sdp = sdpWith(FP, FP.toLowerCase().replace('sha-256', 'SHA-256'));
    expect(fingerprintFromSdp(sdp)).toEqual([FP, FP]);
    expect(normalizeFingerprint('sha-256 zz')).toBeNull();
  });

  it('matches only when every line equals the signed fingerprint', () => {
    expect(sdpMatchesFingerprint(sdpWith(FP, FP), FP)).toBe(true);
    expect(sdpMatchesFingerprint(sdpWith(FP, FP_OTHER), FP)).toBe(false); // one section rewritten
    expect(sdpMatchesFingerprint(sdpWith(FP_OTHER), FP)).toBe(false);
    expect(sdpMatchesFingerprint(sdpWith(), FP)).toBe(false); // none at all
    expect(sdpMatchesFingerprint(sdpWith(FP, 'sha-256 garbage'), FP)).toBe(false);
    expect(sdpMatchesFingerprint(sdpWith(FP.replace('sha-256', 'sha-1')), FP)).toBe(false);
    expect(sdpMatchesFingerprint(sdpWith(FP), 'nonsense')).toBe(false);
  });
});

describe('join announcement', () => {
  async function announce() {
    const root = await deriveRoot({
      secret: new Uint8Array(32).fill(1),
      roomId: 'room-1',
      epoch: 0,
    });
    const joinKey = await deriveJoinKey(root);
    const signing = await generateSigningKeyPair();
    const ecdh = await generateEcdhKeyPair();
    const announcement = await createJoinAnnouncement(joinKey, {
      id: 'alice',
      signingKey: await exportSigningPublicKey(signing.publicKey),
      ecdhKey: await exportPublicKey(ecdh.publicKey),
      fingerprint: FP.toLowerCase(),
    });
    return { joinKey, announcement };
  }

  it('carries a 64-byte HMAC-SHA-512 tag that verifies under the join key', async () => {
    const { joinKey, announcement } = await announce();
    expect(base64urlDecode(announcement.tag)).toHaveLength(64);
    expect(announcement.fingerprint).toBe(FP);
    expect(await verifyJoinAnnouncement(joinKey, announcement)).toBe(true);
  });

  it('fails if any field is rewritten or the room secret differs', async () => {
    const { joinKey, announcement } = await announce();
    const other = await generateSigningKeyPair();
    const otherKey = base64urlEncode(await exportSigningPublicKey(other.publicKey));
    for (const variant of [
      { ...announcement, id: 'mallory' },
      { ...announcement, signingKey: otherKey },
      { ...announcement, ecdhKey: otherKey },
      { ...announcement, fingerprint: FP_OTHER },
      { ...announcement, tag: announcement.tag.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
    ]) {
      expect(await verifyJoinAnnouncement(joinKey, variant)).toBe(false);
    }
    const wrongRoot = await deriveRoot({
      secret: new Uint8Array(32).fill(2),
      roomId: 'room-1',
      epoch: 0,
    });
    expect(await verifyJoinAnnouncement(await deriveJoinKey(wrongRoot), announcement)).toBe(false);
    const nextEpoch = await deriveRoot({
      secret: new Uint8Array(32).fill(1),
      roomId: 'room-1',
      epoch: 1,
    });
    expect(await verifyJoinAnnouncement(await deriveJoinKey(nextEpoch), announcement)).toBe(false);
  });
});
