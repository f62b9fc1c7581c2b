import { isSealedWithCurrentKey, openSecret, resetDataKeys, sealSecret } from '@/lib/security/data-key';

// Issue 16, item 9: secrets at rest are sealed under a key outside the database.
const KEY_A = 'data-key-a-that-is-long-enough-0123456789';
const KEY_B = 'data-key-b-that-is-long-enough-9876543210';

function useKeys(current: string, previous?: string) {
  process.env.DATA_KEY = current;
  if (previous) process.env.DATA_KEY_PREVIOUS = previous;
  else delete process.env.DATA_KEY_PREVIOUS;
  resetDataKeys();
}

afterAll(() => {
  delete process.env.DATA_KEY;
  delete process.env.DATA_KEY_PREVIOUS;
  resetDataKeys();
});

describe('sealing secrets for the database', () => {
  it('round-trips, and the sealed form shows nothing of the secret', () => {
    useKeys(KEY_A);
    const sealed = sealSecret('JBSWY3DPEHPK3PXP', 'user-1');
    expect(sealed).toMatch(/^enc1\./);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(openSecret(sealed, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(sealSecret('JBSWY3DPEHPK3PXP', 'user-1')).not.toBe(sealed); // a fresh IV each time
  });

  it('a sealed secret copied to another user does not open', () => {
    useKeys(KEY_A);
    expect(() => openSecret(sealSecret('JBSWY3DPEHPK3PXP', 'user-1'), 'user-2')).toThrow();
  });

  it('a changed byte does not open', () => {
    useKeys(KEY_A);
    const sealed = sealSecret('JBSWY3DPEHPK3PXP', 'user-1');
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    expect(() => openSecret(`${sealed.slice(0, -2)}${last}${sealed.slice(-1)}`, 'user-1')).toThrow();
  });

  it('a value from before sealing is read as it is', () => {
    useKeys(KEY_A);
    expect(openSecret('JBSWY3DPEHPK3PXP', 'user-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(isSealedWithCurrentKey('JBSWY3DPEHPK3PXP')).toBe(false);
  });

  it('rotation: the previous key still opens, the new one seals, and without the old key it fails', () => {
    useKeys(KEY_A);
    const old = sealSecret('JBSWY3DPEHPK3PXP', 'user-1');
    useKeys(KEY_B, KEY_A);
    expect(openSecret(old, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(isSealedWithCurrentKey(old)).toBe(false);
    expect(isSealedWithCurrentKey(sealSecret('JBSWY3DPEHPK3PXP', 'user-1'))).toBe(true);
    useKeys(KEY_B);
    expect(() => openSecret(old, 'user-1')).toThrow(/DATA_KEY/);
  });
});
