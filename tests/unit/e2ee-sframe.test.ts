/** @jest-environment node */
import { fromHex, toHex, utf8 } from '@/lib/meeting/e2ee/bytes';
import { hkdfExtract } from '@/lib/meeting/e2ee/hkdf';
import {
  CIPHER_SUITE,
  decodeHeader,
  deriveKeyAndSalt,
  deriveSFrameKey,
  encodeHeader,
  nonceFor,
  sframeDecrypt,
  sframeEncrypt,
  sframeLabels,
} from '@/lib/meeting/e2ee/sframe';

// Test vectors copied verbatim from RFC 9605 Appendix C (https://www.rfc-editor.org/rfc/rfc9605,
// Appendix C.1 "Header Encoding/Decoding" and C.3 "SFrame Encryption/Decryption", cipher_suite
// 0x0005). The same values are in the working group's JSON (github.com/sframe-wg/sframe,
// test-vectors/test-vectors.json). C.1 lists every pair from a 17×17 grid; this is a selection
// covering every KID and CTR length from 0 to 8 bytes, including the extremes.
const HEADER_VECTORS: Array<[string, string, string]> = [
  // [kid, ctr, header]
  ['0x0000000000000000', '0x0000000000000000', '00'],
  ['0x0000000000000000', '0x0000000000000001', '01'],
  ['0x0000000000000000', '0x00000000000000ff', '08ff'],
  ['0x0000000000000000', '0x0000000000000100', '090100'],
  ['0x0000000000000000', '0x000000000000ffff', '09ffff'],
  ['0x0000000000000000', '0x0000000000010000', '0a010000'],
  ['0x0000000000000000', '0x0000000000ffffff', '0affffff'],
  ['0x0000000000000000', '0x0000000001000000', '0b01000000'],
  ['0x0000000000000000', '0x00000000ffffffff', '0bffffffff'],
  ['0x0000000000000000', '0x0000000100000000', '0c0100000000'],
  ['0x0000000000000000', '0x000000ffffffffff', '0cffffffffff'],
  ['0x0000000000000000', '0x0000010000000000', '0d010000000000'],
  ['0x0000000000000000', '0x0000ffffffffffff', '0dffffffffffff'],
  ['0x0000000000000000', '0x0001000000000000', '0e01000000000000'],
  ['0x0000000000000000', '0x00ffffffffffffff', '0effffffffffffff'],
  ['0x0000000000000000', '0x0100000000000000', '0f0100000000000000'],
  ['0x0000000000000000', '0xffffffffffffffff', '0fffffffffffffffff'],
  ['0x0000000000000001', '0x0000000000000000', '10'],
  ['0x0000000000000001', '0x0000000000000001', '11'],
  ['0x0000000000000001', '0x00000000000000ff', '18ff'],
  ['0x0000000000000001', '0x0000000000010000', '1a010000'],
  ['0x0000000000000001', '0xffffffffffffffff', '1fffffffffffffffff'],
  ['0x00000000000000ff', '0x0000000000000000', '80ff'],
  ['0x00000000000000ff', '0x0000000000000001', '81ff'],
  ['0x00000000000000ff', '0x00000000000000ff', '88ffff'],
  ['0x00000000000000ff', '0x0000000000000100', '89ff0100'],
  ['0x00000000000000ff', '0x00000000ffffffff', '8bffffffffff'],
  ['0x00000000000000ff', '0xffffffffffffffff', '8fffffffffffffffffff'],
  ['0x0000000000000100', '0x0000000000000000', '900100'],
  ['0x0000000000000100', '0x0000000000000001', '910100'],
  ['0x0000000000000100', '0x00000000000000ff', '980100ff'],
  ['0x0000000000000100', '0x0000000000000100', '9901000100'],
  ['0x0000000000000100', '0x0100000000000000', '9f01000100000000000000'],
  ['0x000000000000ffff', '0x0000000000000000', '90ffff'],
  ['0x000000000000ffff', '0x0000ffffffffffff', '9dffffffffffffffff'],
  ['0x0000000000010000', '0x0000000000000000', 'a0010000'],
  ['0x0000000000010000', '0x0000000000010000', 'aa010000010000'],
  ['0x0000000000ffffff', '0x0000000001000000', 'abffffff01000000'],
  ['0x0000000001000000', '0x0000000000000000', 'b001000000'],
  ['0x0000000001000000', '0x0000000000000100', 'b9010000000100'],
  ['0x00000000ffffffff', '0x0000000100000000', 'bcffffffff0100000000'],
  ['0x0000000100000000', '0x0000000000000000', 'c00100000000'],
  ['0x0000000100000000', '0xffffffffffffffff', 'cf0100000000ffffffffffffffff'],
  ['0x000000ffffffffff', '0x0000000000000001', 'c1ffffffffff'],
  ['0x0000010000000000', '0x0000000000000000', 'd0010000000000'],
  ['0x0000010000000000', '0x0000000000000100', 'd90100000000000100'],
  ['0x0001000000000000', '0x00ffffffffffffff', 'ee01000000000000ffffffffffffff'],
  ['0x0001000000000000', '0x0100000000000000', 'ef010000000000000100000000000000'],
  ['0x00ffffffffffffff', '0x0000000000000000', 'e0ffffffffffffff'],
  ['0x00ffffffffffffff', '0x0000000000000100', 'e9ffffffffffffff0100'],
  ['0x0100000000000000', '0x0000000000000000', 'f00100000000000000'],
  ['0x0100000000000000', '0x00000000000000ff', 'f80100000000000000ff'],
  ['0x0100000000000000', '0xffffffffffffffff', 'ff0100000000000000ffffffffffffffff'],
  ['0xffffffffffffffff', '0x0000000000000000', 'f0ffffffffffffffff'],
  ['0xffffffffffffffff', '0x0000000000010000', 'faffffffffffffffff010000'],
  ['0xffffffffffffffff', '0x0100000000000000', 'ffffffffffffffffff0100000000000000'],
  ['0xffffffffffffffff', '0xffffffffffffffff', 'ffffffffffffffffffffffffffffffffff'],
];

// RFC 9605 Appendix C.3, cipher_suite 0x0005 (AES_256_GCM_SHA512_128).
const SUITE5 = {
  kid: BigInt('0x0000000000000123'),
  ctr: BigInt('0x0000000000004567'),
  baseKey: '000102030405060708090a0b0c0d0e0f',
  keyLabel: '534672616d6520312e3020536563726574206b65792000000000000001230005',
  saltLabel: '534672616d6520312e30205365637265742073616c742000000000000001230005',
  secret: '0fc3ea6de6aac97a35f194cf9bed94d4b5230f1cb45a785c9fe5dce9c188938a' + 'b6ba005bc4c0a19181599e9d1bcf7b74aca48b60bf5e254e546d809313e083a3',
  key: 'd3e27b0d4a5ae9e55df01a70e6d4d28d969b246e2936f4b7a5d9b494da6b9633',
  salt: '84991c167b8cd23c93708ec7',
  metadata: '4945544620534672616d65205747',
  nonce: '84991c167b8cd23c9370cba0',
  aad: '99012345674945544620534672616d65205747',
  pt: '64726166742d696574662d736672616d652d656e63',
  ct: '990123456794f509d36e9beacb0e261d99c7d1e972f1fed787d4049f17ca21353c1cc24d56ceabced279',
};

describe('SFrame header (RFC 9605 §4.3, Appendix C.1)', () => {
  it.each(HEADER_VECTORS)('kid %s ctr %s encodes to %s and back', (kid, ctr, header) => {
    expect(toHex(encodeHeader(BigInt(kid), BigInt(ctr)))).toBe(header);
    const decoded = decodeHeader(fromHex(header));
    expect(decoded).toEqual({ kid: BigInt(kid), ctr: BigInt(ctr), length: header.length / 2 });
  });

  it('decodes a header in the middle of a buffer and rejects truncated or non-minimal ones', () => {
    expect(decodeHeader(fromHex('aabb9901000100cc'), 2)).toEqual({
      kid: BigInt(256),
      ctr: BigInt(256),
      length: 5,
    });
    expect(decodeHeader(fromHex('99010001'))).toBeNull(); // CTR byte missing
    expect(decodeHeader(new Uint8Array(0))).toBeNull();
    expect(decodeHeader(fromHex('0805'))).toBeNull(); // CTR 5 must live in the config byte
    expect(decodeHeader(fromHex('090001'))).toBeNull(); // leading zero byte
    expect(decodeHeader(fromHex('8003'))).toBeNull(); // KID 3 must live in the config byte
  });

  it('refuses values outside 64 bits', () => {
    expect(() => encodeHeader(BigInt(1) << BigInt(64), BigInt(0))).toThrow(RangeError);
    expect(() => encodeHeader(BigInt(0), BigInt(-1))).toThrow(RangeError);
  });
});

describe('SFrame AES_256_GCM_SHA512_128 (RFC 9605 §4.4, Appendix C.3)', () => {
  const baseKey = fromHex(SUITE5.baseKey);

  it('uses the suite id 0x0005 and the RFC labels', () => {
    expect(CIPHER_SUITE).toBe(5);
    const { keyLabel, saltLabel } = sframeLabels(SUITE5.kid);
    expect(toHex(keyLabel)).toBe(SUITE5.keyLabel);
    expect(toHex(saltLabel)).toBe(SUITE5.saltLabel);
  });

  it('derives sframe_secret, sframe_key and sframe_salt', async () => {
    expect(toHex(await hkdfExtract(new Uint8Array(0), baseKey))).toBe(SUITE5.secret);
    const { key, salt } = await deriveKeyAndSalt(baseKey, SUITE5.kid);
    expect(toHex(key)).toBe(SUITE5.key);
    expect(toHex(salt)).toBe(SUITE5.salt);
  });

  it('forms the nonce as salt XOR CTR', () => {
    expect(toHex(nonceFor(fromHex(SUITE5.salt), SUITE5.ctr))).toBe(SUITE5.nonce);
    expect(toHex(nonceFor(fromHex(SUITE5.salt), 0))).toBe(SUITE5.salt);
    // The number path used per frame agrees with the BigInt path.
    expect(toHex(nonceFor(fromHex(SUITE5.salt), 0x4567))).toBe(SUITE5.nonce);
    for (const ctr of [1, 255, 256, 0xffffffff, 2 ** 32, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER]) {
      expect(toHex(nonceFor(fromHex(SUITE5.salt), ctr))).toBe(toHex(nonceFor(fromHex(SUITE5.salt), BigInt(ctr))));
    }
    expect(() => nonceFor(fromHex(SUITE5.salt), -1)).toThrow(RangeError);
  });

  it('encrypts to the published ciphertext with a non-extractable key, and decrypts it', async () => {
    const key = await deriveSFrameKey(baseKey, SUITE5.kid);
    expect(key.key.extractable).toBe(false);
    expect(toHex(key.salt)).toBe(SUITE5.salt);
    const ct = await sframeEncrypt(key, SUITE5.ctr, fromHex(SUITE5.metadata), fromHex(SUITE5.pt));
    expect(toHex(ct)).toBe(SUITE5.ct);
    // The AAD is header ‖ metadata: the vector's header is its first 5 bytes.
    expect(toHex(ct.subarray(0, 5)) + SUITE5.metadata).toBe(SUITE5.aad);
    const lookup = (kid: bigint) => (kid === key.kid ? key : undefined);
    const pt = await sframeDecrypt(lookup, fromHex(SUITE5.metadata), fromHex(SUITE5.ct));
    expect(pt && toHex(pt)).toBe(SUITE5.pt);
  });

  it('rejects a wrong metadata, any flipped bit, and an unknown KID', async () => {
    const key = await deriveSFrameKey(baseKey, SUITE5.kid);
    const lookup = (kid: bigint) => (kid === key.kid ? key : undefined);
    const ct = fromHex(SUITE5.ct);
    expect(await sframeDecrypt(lookup, utf8('other metadata'), ct)).toBeNull();
    for (let bit = 0; bit < ct.length * 8; bit += 7) {
      const copy = ct.slice();
      copy[bit >> 3]! ^= 1 << (bit & 7);
      expect(await sframeDecrypt(lookup, fromHex(SUITE5.metadata), copy)).toBeNull();
    }
    expect(await sframeDecrypt(() => undefined, fromHex(SUITE5.metadata), ct)).toBeNull();
  });

  it('derives a different key and salt for every KID', async () => {
    const a = await deriveKeyAndSalt(baseKey, BigInt(1));
    const b = await deriveKeyAndSalt(baseKey, BigInt(2));
    expect(toHex(a.key)).not.toBe(toHex(b.key));
    expect(toHex(a.salt)).not.toBe(toHex(b.salt));
  });
});
