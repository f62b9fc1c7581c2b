/** @jest-environment node */
import { createHmac, createPrivateKey, createPublicKey, diffieHellman, hkdfSync, pbkdf2Sync } from 'node:crypto';
import { base64urlDecode, base64urlEncode, concatBytes, field, toHex, utf8, type Bytes } from '@/lib/meeting/e2ee/bytes';
import {
  decodeRoomSecret,
  deriveDataKey,
  deriveJoinKey,
  deriveMediaBaseKey,
  derivePairSecret,
  deriveRoot,
  encodeRoomSecret,
  exportPublicKey,
  fragmentForSecret,
  fragmentWithoutSecret,
  generateEcdhKeyPair,
  generateRoomSecret,
  importEcdhPublicKey,
  kidFor,
  LABELS,
  PASSWORD_ITERATIONS,
  passwordSecrets,
  ratchet,
  secretFromFragment,
  stretchPassword,
} from '@/lib/meeting/e2ee/keys';

// Fixed inputs for the known-answer tests. The expected hex values were computed once with this
// implementation and written here; the "independent" tests recompute them with node:crypto
// (a different HKDF/PBKDF2/HMAC/ECDH implementation) from the documented labels.
const S = Uint8Array.from({ length: 32 }, (_, i) => i);
const ROOM = 'room-123';
const EPOCH = 7;
const PASSWORD = 'correct horse battery staple';
const JWK_A = {
  kty: 'EC',
  crv: 'P-256',
  x: 'tqZpwk3jb5NgqVIS7d8DXtfRfzM2no2JgvdE8Eg_HeM',
  y: '3RBUyH0BBW5M564tMzyRdZtG8i4ibYnINb6TDBs2RUk',
  d: 'Sk5lzO_3fERFPj-J6K-uLBntIh49zhR-a6FcXn5hmJI',
};
const JWK_B = {
  kty: 'EC',
  crv: 'P-256',
  x: 'EwMiYaSIiaDwOUD1zlVG14x_LHrqkgoOhgop7LDCYVM',
  y: 'T3t3j-OFY56x-2fBfjTl1D1MVVQEbKMGUIvg18DZtnQ',
  d: 'lQaipgx4JPA-_Vw56h_Qi6w0-GGz49YmFmGQAPTgZ9M',
};

const KAT = {
  secretText: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8',
  stretched1000: 'c8e3ac69287eddafa5407df4ebc9c6d2e9e0ceffa1cabe7dfedf48703fd3021b',
  stretchedDefault: '9048eed22f9632eed23e8c7e981d156dc9e130ef126973633f40f5fe5d227bcd',
  passwordKey: 'b0c67b5a18983f99812fab065620da8ee12f3eb7207f6bd9d3204d1f763fd9a7',
  proof: 'uVXLJymqJt2knoDx3ThenJxZu-4GQKUkaHKBDQ32V5I',
  root: '47ffee7dc6b025b410fba4321a830f60488657b292a06c90e687000e6ada9f77',
  rootWithPassword: 'b4988b69ea3c5e83706cb122eb1dd516c3f4619c1aab305562fd9b826550a4c5',
  joinTag: '599564450b912f44cf6d0f5ac878151d1f1e24bf716aafcffd1887f95466a6d1' + 'fddedfed1e7b184f290fad5f012be3ac86d096378085226e156847eafde21256',
  mediaAliceBob0: '274df4fdba5098e3acb6bdedf12c8cf918804cfe0e1584be7ae4f8428a1b0c2f',
  mediaBobAlice0: 'b1a34d2aea46fdaf59e8f1fdded25bb5d9ab5696085ebd42871e0c64d873bb75',
  mediaAliceBob1: '22d454fed330683c6f66379bb9f3cf358806f13202af59486f9c021613549de0',
  dataAliceBob: 'e6345ad32ef6e217d116b3c616372755f75a264e4c4051356e131d8e',
  ratchet1: '9c62489614833fa50de54106b5810eb6193bcf3ffceca0c8b1a1d38fcdb7526e',
};

async function importPrivate(jwk: typeof JWK_A): Promise<CryptoKey> {
  return crypto.subtle.importKey('jwk', jwk, { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
}

async function publicOf(jwk: typeof JWK_A): Promise<CryptoKey> {
  const pub = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  return crypto.subtle.importKey('jwk', pub, { name: 'ECDH', namedCurve: 'P-256' }, true, []);
}

async function pairAB(): Promise<CryptoKey> {
  return derivePairSecret(await importPrivate(JWK_A), await publicOf(JWK_B));
}

/** Encrypts a fixed block with a data key and a zero nonce, to pin a non-extractable key. */
async function fingerprintAesKey(key: CryptoKey): Promise<string> {
  const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12) }, key, utf8('known answer'));
  return toHex(new Uint8Array(ct));
}

async function joinTag(root: Bytes): Promise<string> {
  const key = await deriveJoinKey(root);
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8('known answer'))));
}

function nodeHkdf(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): string {
  return toHex(new Uint8Array(hkdfSync('sha512', ikm, salt, info, length)));
}

function nodeShared(): Uint8Array {
  const privateKey = createPrivateKey({ key: JWK_A, format: 'jwk' });
  const pub = { kty: JWK_B.kty, crv: JWK_B.crv, x: JWK_B.x, y: JWK_B.y };
  return new Uint8Array(diffieHellman({ privateKey, publicKey: createPublicKey({ key: pub, format: 'jwk' }) }));
}

describe('room secret and fragment', () => {
  it('encodes 32 bytes as 43 base64url characters and back', () => {
    const text = encodeRoomSecret(S);
    expect(text).toBe(KAT.secretText);
    expect(toHex(decodeRoomSecret(text)!)).toBe(toHex(S));
    const random = generateRoomSecret();
    expect(random).toHaveLength(32);
    expect(toHex(decodeRoomSecret(encodeRoomSecret(random))!)).toBe(toHex(random));
  });

  it('rejects anything that is not exactly one canonical 32-byte secret', () => {
    const text = encodeRoomSecret(S);
    expect(decodeRoomSecret(text.slice(0, 42))).toBeNull();
    expect(decodeRoomSecret(text + 'A')).toBeNull();
    expect(decodeRoomSecret(text.slice(0, 42) + '+')).toBeNull(); // not URL-safe
    expect(decodeRoomSecret(text.slice(0, 42) + '=')).toBeNull();
    expect(decodeRoomSecret(text.slice(0, 42) + 'B')).toBeNull(); // non-zero trailing bits
    expect(decodeRoomSecret('')).toBeNull();
    expect(() => encodeRoomSecret(new Uint8Array(31))).toThrow(RangeError);
  });

  it('reads k from the fragment, refusing absent, duplicate or broken values', () => {
    const fragment = fragmentForSecret(S);
    expect(fragment).toBe(`#k=${KAT.secretText}`);
    expect(toHex(secretFromFragment(fragment)!)).toBe(toHex(S));
    expect(toHex(secretFromFragment(`#lang=en&k=${KAT.secretText}`)!)).toBe(toHex(S));
    expect(secretFromFragment('#lang=en')).toBeNull();
    expect(secretFromFragment(`${fragment}&k=${KAT.secretText}`)).toBeNull();
    expect(secretFromFragment('#k=abc')).toBeNull();
  });

  it('removes the secret from the fragment, keeping other parameters', () => {
    expect(fragmentWithoutSecret(fragmentForSecret(S))).toBe('');
    expect(fragmentWithoutSecret(`#lang=en&k=${KAT.secretText}&x=1`)).toBe('#lang=en&x=1');
    expect(fragmentWithoutSecret('')).toBe('');
  });

  it('base64url round-trips every length', () => {
    for (let n = 0; n < 40; n += 1) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      expect(toHex(base64urlDecode(base64urlEncode(bytes))!)).toBe(toHex(bytes));
      expect(base64urlEncode(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });
});

describe('password stretching', () => {
  it('uses 600,000 iterations of PBKDF2-SHA-256 salted with the password salt', async () => {
    expect(PASSWORD_ITERATIONS).toBe(600_000);
    const stretched = await stretchPassword(PASSWORD, ROOM);
    expect(toHex(stretched)).toBe(KAT.stretchedDefault);
    expect(toHex(stretched)).toBe(pbkdf2Sync(PASSWORD, ROOM, 600_000, 32, 'sha256').toString('hex'));
  });

  it('derives a password key and a separate server proof (known answers)', async () => {
    const stretched = await stretchPassword(PASSWORD, ROOM, { unsafeIterationsForTests: 1000 });
    expect(toHex(stretched)).toBe(KAT.stretched1000);
    const { passwordKey, proof } = await passwordSecrets(stretched);
    expect(toHex(passwordKey)).toBe(KAT.passwordKey);
    expect(proof).toBe(KAT.proof);
    // Independently: HKDF-SHA-512 with an empty salt and the two labels.
    expect(nodeHkdf(stretched, new Uint8Array(0), utf8('enclave password key'), 32)).toBe(KAT.passwordKey);
    expect(base64urlEncode(Buffer.from(hkdfSync('sha512', stretched, new Uint8Array(0), 'enclave password proof', 32)))).toBe(KAT.proof);
    expect(toHex(base64urlDecode(proof)!)).not.toBe(toHex(passwordKey));
  });

  it('changes with the password, the salt and Unicode normalisation only as intended', async () => {
    const base = toHex(await stretchPassword(PASSWORD, ROOM, { unsafeIterationsForTests: 1000 }));
    expect(toHex(await stretchPassword(`${PASSWORD}!`, ROOM, { unsafeIterationsForTests: 1000 }))).not.toBe(base);
    expect(toHex(await stretchPassword(PASSWORD, 'room-124', { unsafeIterationsForTests: 1000 }))).not.toBe(base);
    const composed = await stretchPassword('caf\u00e9', ROOM, { unsafeIterationsForTests: 1000 });
    const decomposed = await stretchPassword('cafe\u0301', ROOM, {
      unsafeIterationsForTests: 1000,
    });
    expect(toHex(composed)).toBe(toHex(decomposed));
  });
});

describe('root, join key and pairwise keys (known answers)', () => {
  it('derives R from S, the room id and the epoch, with and without a password', async () => {
    const root = await deriveRoot({ secret: S, roomId: ROOM, epoch: EPOCH });
    expect(toHex(root)).toBe(KAT.root);
    const salt = concatBytes(utf8(ROOM), Uint8Array.from([0, 0, 0, 7]));
    expect(nodeHkdf(S, salt, utf8('enclave root'), 32)).toBe(KAT.root);
    const { passwordKey } = await passwordSecrets(fromHexKat(KAT.stretched1000));
    const withPassword = await deriveRoot({ secret: S, passwordKey, roomId: ROOM, epoch: EPOCH });
    expect(toHex(withPassword)).toBe(KAT.rootWithPassword);
    expect(nodeHkdf(concatBytes(S, passwordKey), salt, utf8('enclave root'), 32)).toBe(KAT.rootWithPassword);
  });

  it('changes R when any input byte changes', async () => {
    const outputs = new Set<string>();
    outputs.add(toHex(await deriveRoot({ secret: S, roomId: ROOM, epoch: EPOCH })));
    const flipped = S.slice();
    flipped[31]! ^= 1;
    outputs.add(toHex(await deriveRoot({ secret: flipped, roomId: ROOM, epoch: EPOCH })));
    outputs.add(toHex(await deriveRoot({ secret: S, roomId: 'room-124', epoch: EPOCH })));
    outputs.add(toHex(await deriveRoot({ secret: S, roomId: ROOM, epoch: EPOCH + 1 })));
    outputs.add(
      toHex(
        await deriveRoot({
          secret: S,
          passwordKey: new Uint8Array(32),
          roomId: ROOM,
          epoch: EPOCH,
        }),
      ),
    );
    expect(outputs.size).toBe(5);
  });

  it('pins the join key (HMAC-SHA-512 under HKDF(R, "enclave join"))', async () => {
    const root = fromHexKat(KAT.root);
    expect(await joinTag(root)).toBe(KAT.joinTag);
    const joinKey = Buffer.from(hkdfSync('sha512', root, new Uint8Array(0), 'enclave join', 64));
    expect(createHmac('sha512', joinKey).update('known answer').digest('hex')).toBe(KAT.joinTag);
  });

  it('pins the media keys per direction and transceiver', async () => {
    const root = fromHexKat(KAT.root);
    const pair = await pairAB();
    expect(toHex(await deriveMediaBaseKey(pair, root, 'alice', 'bob', '0'))).toBe(KAT.mediaAliceBob0);
    expect(toHex(await deriveMediaBaseKey(pair, root, 'bob', 'alice', '0'))).toBe(KAT.mediaBobAlice0);
    expect(toHex(await deriveMediaBaseKey(pair, root, 'alice', 'bob', '1'))).toBe(KAT.mediaAliceBob1);
    const info = concatBytes(utf8('enclave media'), field('alice'), utf8('→'), field('bob'), field('0'));
    expect(nodeHkdf(nodeShared(), root, info, 32)).toBe(KAT.mediaAliceBob0);
  });

  it('gives both ends of a pair the same keys, from either side of ECDH', async () => {
    const root = fromHexKat(KAT.root);
    const fromB = await derivePairSecret(await importPrivate(JWK_B), await publicOf(JWK_A));
    expect(toHex(await deriveMediaBaseKey(fromB, root, 'alice', 'bob', '0'))).toBe(KAT.mediaAliceBob0);
    expect(await fingerprintAesKey(await deriveDataKey(fromB, root, 'alice', 'bob'))).toBe(KAT.dataAliceBob);
  });

  it('pins the data-channel key (label "enclave data")', async () => {
    const root = fromHexKat(KAT.root);
    const key = await deriveDataKey(await pairAB(), root, 'alice', 'bob');
    expect(key.extractable).toBe(false);
    expect(await fingerprintAesKey(key)).toBe(KAT.dataAliceBob);
    const info = concatBytes(utf8('enclave data'), field('alice'), utf8('→'), field('bob'));
    const raw = Buffer.from(hkdfSync('sha512', nodeShared(), root, info, 32));
    const imported = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
    expect(await fingerprintAesKey(imported)).toBe(KAT.dataAliceBob);
  });

  it('changes every output when any label or identifier changes', async () => {
    const root = fromHexKat(KAT.root);
    const shared = nodeShared();
    const media = (label: string, s: string, r: string, mid: string, arrow = '→') =>
      nodeHkdf(shared, root, concatBytes(utf8(label), field(s), utf8(arrow), field(r), field(mid)), 32);
    const expected = KAT.mediaAliceBob0;
    expect(media('enclave media', 'alice', 'bob', '0')).toBe(expected);
    for (const variant of [
      media('enclave medi', 'alice', 'bob', '0'),
      media('Enclave media', 'alice', 'bob', '0'),
      media('enclave media', 'alice', 'bob', '0', '->'),
      media('enclave media', 'alicf', 'bob', '0'),
      media('enclave media', 'alice', 'boc', '0'),
      media('enclave media', 'alice', 'bob', '00'),
    ]) {
      expect(variant).not.toBe(expected);
    }
    const labels = Object.values(LABELS).filter((label) => label !== '→');
    const outputs = new Set(labels.map((label) => nodeHkdf(S, new Uint8Array(0), utf8(label), 32)));
    expect(outputs.size).toBe(labels.length); // all labels distinct
    // Length prefixes keep ("ab", "c") and ("a", "bc") apart.
    const pair = await pairAB();
    expect(toHex(await deriveMediaBaseKey(pair, root, 'ab', 'c', '0'))).not.toBe(toHex(await deriveMediaBaseKey(pair, root, 'a', 'bc', '0')));
  });

  it('uses non-extractable ECDH private keys and 65-byte public keys', async () => {
    const pair = await generateEcdhKeyPair();
    expect(pair.privateKey.extractable).toBe(false);
    const raw = await exportPublicKey(pair.publicKey);
    expect(raw).toHaveLength(65);
    expect(raw[0]).toBe(4);
    await expect(importEcdhPublicKey(raw)).resolves.toBeDefined();
  });
});

describe('key ids and ratchet', () => {
  it('lays out KID as epoch and step', () => {
    expect(kidFor(0, 0)).toBe(BigInt(0));
    expect(kidFor(1, 0)).toBe(BigInt(65536));
    expect(kidFor(7, 3)).toBe(BigInt(7 * 65536 + 3));
    expect(() => kidFor(0, 65536)).toThrow(RangeError);
  });

  it('ratchets with HKDF(key, "enclave ratchet") and increments the KID', async () => {
    const start = { baseKey: fromHexKat(KAT.mediaAliceBob0), kid: kidFor(EPOCH, 0) };
    const next = await ratchet(start);
    expect(next.kid).toBe(kidFor(EPOCH, 1));
    expect(toHex(next.baseKey)).toBe(KAT.ratchet1);
    expect(nodeHkdf(start.baseKey, new Uint8Array(0), utf8('enclave ratchet'), 32)).toBe(KAT.ratchet1);
    const again = await ratchet(next);
    expect(toHex(again.baseKey)).not.toBe(KAT.ratchet1);
    await expect(ratchet({ baseKey: start.baseKey, kid: kidFor(EPOCH, 65535) })).rejects.toThrow(RangeError);
  });
});

function fromHexKat(hex: string): Bytes {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}
