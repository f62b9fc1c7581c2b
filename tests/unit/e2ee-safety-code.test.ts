/** @jest-environment node */
import { EMOJI_TABLE, renderDigits, renderEmoji, safetyCode, type SafetySide } from '@/lib/meeting/e2ee/safety-code';
import { exportSigningPublicKey, generateSigningKeyPair } from '@/lib/meeting/e2ee/signing';

const FP_A = 'sha-256 4A:AD:B9:B1:3F:82:18:3B:54:02:12:DF:3E:5D:49:6B:19:E5:7C:AB:3C:F7:5C:8C:AB:74:E6:B9:8B:1F:DE:2E';
const FP_B = 'sha-256 11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00';

async function side(fingerprint: string): Promise<SafetySide> {
  const { publicKey } = await generateSigningKeyPair();
  return { signingKey: await exportSigningPublicKey(publicKey), fingerprint };
}

describe('safety code', () => {
  it('is the same on both sides and has 6 groups of 5 digits and 8 emoji', async () => {
    const alice = await side(FP_A);
    const bob = await side(FP_B);
    const atAlice = await safetyCode(alice, bob);
    const atBob = await safetyCode(bob, alice);
    expect(atAlice).toEqual(atBob);
    expect(atAlice.digits).toMatch(/^\d{5}( \d{5}){5}$/);
    expect(atAlice.emoji).toHaveLength(8);
    for (const entry of atAlice.emoji) expect(EMOJI_TABLE).toContain(entry);
  });

  it('ignores fingerprint case but changes when any key byte or fingerprint changes', async () => {
    const alice = await side(FP_A);
    const bob = await side(FP_B);
    const base = await safetyCode(alice, bob);
    expect(await safetyCode({ ...alice, fingerprint: FP_A.toLowerCase() }, bob)).toEqual(base);
    const changedKey = alice.signingKey.slice();
    changedKey[40]! ^= 1;
    const mallory = await side(FP_A);
    for (const variant of [
      await safetyCode({ ...alice, signingKey: changedKey }, bob),
      await safetyCode(alice, { ...bob, fingerprint: FP_A }),
      await safetyCode(mallory, bob),
      await safetyCode(alice, mallory),
    ]) {
      expect(variant.digits).not.toBe(base.digits);
      expect(variant.emoji).not.toEqual(base.emoji);
    }
  });

  it('has a fixed table of 64 distinct emoji and names', () => {
    expect(EMOJI_TABLE).toHaveLength(64);
    expect(new Set(EMOJI_TABLE.map(([emoji]) => emoji)).size).toBe(64);
    expect(new Set(EMOJI_TABLE.map(([, name]) => name)).size).toBe(64);
  });

  it('renders known bytes deterministically', () => {
    const bytes = Uint8Array.from({ length: 36 }, (_, i) => i);
    // 0x0001020304 mod 10^5 = 09060; 0x0506070809 mod 10^5 = 60585
    expect(renderDigits(bytes, 2)).toBe('09060 60585');
    // 0x00 0x10 0x83 … → 6-bit groups 0, 1, 2, 3 (0b000000 000001 000010 000011)
    expect(renderEmoji(Uint8Array.from([0x00, 0x10, 0x83, 0xff]), 4).map(([, name]) => name)).toEqual(['dog', 'cat', 'lion', 'horse']);
    expect(renderEmoji(Uint8Array.from([0xff, 0xff, 0xff]), 4).map(([, name]) => name)).toEqual(['pin', 'pin', 'pin', 'pin']);
  });
});
