/** @jest-environment node */
import { randomBytes, toHex, type Bytes } from '@/lib/meeting/e2ee/bytes';
import { clearPrefixLength, CounterExhaustedError, FrameDecryptor, FrameEncryptor, MAX_COUNTER, ReplayWindow, type MediaCodec } from '@/lib/meeting/e2ee/frame';
import { decodeHeader, deriveSFrameKey, nonceFor, NT } from '@/lib/meeting/e2ee/sframe';

const baseKey = new Uint8Array(32).fill(7);

async function pair(kid = BigInt(1)) {
  const key = await deriveSFrameKey(baseKey, kid);
  const decryptor = new FrameDecryptor();
  decryptor.setKey(key);
  return { key, encryptor: new FrameEncryptor(key), decryptor };
}

function frameOf(length: number): Bytes {
  return randomBytes(length);
}

describe('clear prefix per codec', () => {
  it('keeps 10/3 bytes of VP8, 1 of Opus, none otherwise', () => {
    expect(clearPrefixLength('vp8', true)).toBe(10);
    expect(clearPrefixLength('vp8', false)).toBe(3);
    expect(clearPrefixLength('opus', false)).toBe(1);
    expect(clearPrefixLength('unknown', true)).toBe(0);
  });
});

describe('frame encrypt/decrypt', () => {
  const cases: Array<[MediaCodec, boolean]> = [
    ['vp8', true],
    ['vp8', false],
    ['opus', false],
    ['unknown', false],
  ];

  it.each(cases)('round-trips %s (key frame %s) with the prefix in clear', async (codec, keyFrame) => {
    const { encryptor, decryptor } = await pair();
    const prefix = clearPrefixLength(codec, keyFrame);
    const frame = frameOf(1200);
    const sealed = (await encryptor.encrypt(frame, prefix))!;
    // prefix ‖ header ‖ ciphertext ‖ tag
    expect(toHex(sealed.subarray(0, prefix))).toBe(toHex(frame.subarray(0, prefix)));
    const header = decodeHeader(sealed, prefix)!;
    expect(header).toEqual({ kid: BigInt(1), ctr: BigInt(0), length: 1 }); // config byte 0x10
    expect(sealed.length).toBe(frame.length + header.length + NT);
    expect(toHex(sealed.subarray(prefix + header.length, prefix + header.length + 32))).not.toBe(toHex(frame.subarray(prefix, prefix + 32)));
    const opened = await decryptor.decrypt(sealed, prefix);
    expect(opened && toHex(opened)).toBe(toHex(frame));
  });

  it('round-trips a frame that is exactly its prefix, and refuses one shorter than it', async () => {
    const { encryptor, decryptor } = await pair();
    const opus = frameOf(1);
    const sealed = (await encryptor.encrypt(opus, 1))!;
    expect(toHex((await decryptor.decrypt(sealed, 1))!)).toBe(toHex(opus));
    expect(await encryptor.encrypt(frameOf(2), 3)).toBeNull();
  });

  it('fails on any flipped bit in prefix, header, ciphertext or tag', async () => {
    const { encryptor, decryptor } = await pair();
    const frame = frameOf(64);
    const sealed = (await encryptor.encrypt(frame, 10))!;
    // Every single bit of the output (prefix 0-9, header 10-11, ciphertext, tag).
    for (let bit = 0; bit < sealed.length * 8; bit += 1) {
      const copy = sealed.slice();
      copy[bit >> 3]! ^= 1 << (bit & 7);
      expect(await decryptor.decrypt(copy, 10)).toBeNull();
    }
    // Untouched, it still opens (the failures above did not poison the replay window).
    expect(toHex((await decryptor.decrypt(sealed, 10))!)).toBe(toHex(frame));
  });

  it('fails when the receiver assumes a different prefix length', async () => {
    const { encryptor, decryptor } = await pair();
    const sealed = (await encryptor.encrypt(frameOf(100), 10))!;
    expect(await decryptor.decrypt(sealed, 3)).toBeNull();
  });

  it('drops frames with an unknown key id, and says why', async () => {
    const { encryptor } = await pair(BigInt(5));
    const other = new FrameDecryptor();
    other.setKey(await deriveSFrameKey(baseKey, BigInt(6)));
    const sealed = (await encryptor.encrypt(frameOf(50), 1))!;
    expect(await other.open(sealed, 1)).toEqual({ ok: false, reason: 'unknown-key' });
    expect(await other.decrypt(sealed, 1)).toBeNull();
  });

  it('drops frames under the right KID but the wrong key (wrong room secret)', async () => {
    const sender = await deriveSFrameKey(baseKey, BigInt(1));
    const wrong = new FrameDecryptor();
    wrong.setKey(await deriveSFrameKey(new Uint8Array(32).fill(8), BigInt(1)));
    const sealed = (await new FrameEncryptor(sender).encrypt(frameOf(50), 3))!;
    expect(await wrong.open(sealed, 3)).toEqual({ ok: false, reason: 'auth' });
  });

  it('refuses truncated input', async () => {
    const { decryptor } = await pair();
    expect(await decryptor.open(new Uint8Array(10), 3)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('rejects replays and frames older than the window, accepts reordering inside it', async () => {
    const { encryptor, decryptor } = await pair();
    const sealed: Bytes[] = [];
    for (let i = 0; i < 200; i += 1) sealed.push((await encryptor.encrypt(frameOf(20), 1))!);
    expect(await decryptor.decrypt(sealed[5]!, 1)).not.toBeNull();
    expect(await decryptor.open(sealed[5]!, 1)).toEqual({ ok: false, reason: 'replay' });
    expect(await decryptor.decrypt(sealed[150]!, 1)).not.toBeNull();
    expect(await decryptor.decrypt(sealed[100]!, 1)).not.toBeNull(); // late but inside 128
    expect(await decryptor.open(sealed[20]!, 1)).toEqual({ ok: false, reason: 'replay' }); // 150-20 ≥ 128
    expect(await decryptor.open(sealed[150]!, 1)).toEqual({ ok: false, reason: 'replay' });
  });

  it('does not let a concurrent duplicate through', async () => {
    const { encryptor, decryptor } = await pair();
    const sealed = (await encryptor.encrypt(frameOf(20), 1))!;
    const results = await Promise.all([decryptor.decrypt(sealed, 1), decryptor.decrypt(sealed, 1), decryptor.decrypt(sealed, 1)]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('stops decrypting once a key is deleted (ratchet or leave)', async () => {
    const { key, encryptor, decryptor } = await pair();
    decryptor.deleteKey(key.kid);
    expect(decryptor.hasKey(key.kid)).toBe(false);
    expect(await decryptor.open((await encryptor.encrypt(frameOf(20), 1))!, 1)).toEqual({
      ok: false,
      reason: 'unknown-key',
    });
  });
});

describe('replay window', () => {
  it('tracks exactly the last 128 counters', () => {
    const window = new ReplayWindow(128);
    expect(window.accept(0)).toBe(true);
    expect(window.accept(0)).toBe(false);
    expect(window.accept(1000)).toBe(true);
    expect(window.accept(872)).toBe(false); // 1000 - 128
    expect(window.accept(873)).toBe(true);
    expect(window.accept(873)).toBe(false);
    expect(window.check(999)).toBe(true);
    expect(window.check(999)).toBe(true); // check does not record
  });
});

describe('counter and nonce uniqueness', () => {
  it('never repeats a (key, nonce) pair over 10^6 frames under one key', async () => {
    const { key, encryptor } = await pair();
    // A 12-byte nonce as two exact 48-bit numbers: high half → set of low halves.
    const seen = new Map<number, Set<number>>();
    let repeats = 0;
    let previous = -1;
    let notIncreasing = 0;
    for (let i = 0; i < 1_000_000; i += 1) {
      const ctr = encryptor.takeCounter();
      if (ctr !== previous + 1) notIncreasing += 1; // strictly increasing, no reuse
      previous = ctr;
      // The key is fixed, so (key, nonce) pairs are distinct iff the nonces are.
      const nonce = nonceFor(key.salt, ctr);
      const view = new DataView(nonce.buffer);
      const high = view.getUint16(0) * 2 ** 32 + view.getUint32(2);
      const low = view.getUint16(6) * 2 ** 32 + view.getUint32(8);
      const lows = seen.get(high) ?? new Set<number>();
      if (lows.has(low)) repeats += 1;
      lows.add(low);
      seen.set(high, lows);
    }
    expect(notIncreasing).toBe(0);
    expect(repeats).toBe(0);
    expect([...seen.values()].reduce((sum, lows) => sum + lows.size, 0)).toBe(1_000_000);
  }, 30_000);

  it('uses the same counter path for real frames, even when encrypting concurrently', async () => {
    const { encryptor } = await pair();
    const sealed = await Promise.all(Array.from({ length: 500 }, () => encryptor.encrypt(frameOf(30), 1)));
    const counters = sealed.map((s) => Number(decodeHeader(s!, 1)!.ctr)).sort((a, b) => a - b);
    expect(counters).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(encryptor.takeCounter()).toBe(500);
  });

  it('allows only one encryptor per key object, so counters cannot restart at 0', async () => {
    const { key } = await pair();
    expect(() => new FrameEncryptor(key)).toThrow('already has an encryptor');
  });

  it('refuses to encrypt past the last counter instead of wrapping', async () => {
    const key = await deriveSFrameKey(baseKey, BigInt(1));
    const encryptor = new FrameEncryptor(key, { unsafeFirstCounterForTests: MAX_COUNTER });
    const last = (await encryptor.encrypt(frameOf(20), 1))!;
    expect(decodeHeader(last, 1)!.ctr).toBe(BigInt(MAX_COUNTER));
    await expect(encryptor.encrypt(frameOf(20), 1)).rejects.toBeInstanceOf(CounterExhaustedError);
    await expect(encryptor.encrypt(frameOf(20), 1)).rejects.toBeInstanceOf(CounterExhaustedError);
    expect(() => encryptor.takeCounter()).toThrow(CounterExhaustedError);
  });

  it('refuses frames whose counter is beyond the limit', async () => {
    const key = await deriveSFrameKey(baseKey, BigInt(1));
    const decryptor = new FrameDecryptor();
    decryptor.setKey(key);
    // A header claiming CTR 2^32 (never produced by a sender) is malformed for us.
    const forged = Uint8Array.from([0x00, 0x1c, 0x01, 0, 0, 0, 0, ...new Uint8Array(NT)]);
    expect(await decryptor.open(forged, 1)).toEqual({ ok: false, reason: 'malformed' });
  });
});
