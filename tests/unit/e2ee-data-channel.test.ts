/** @jest-environment node */
import { randomBytes, utf8 } from '@/lib/meeting/e2ee/bytes';
import { DataChannelCipher, openDataMessage, sealDataMessage } from '@/lib/meeting/e2ee/data-channel';
import { deriveDataKey, derivePairSecret, deriveRoot, generateEcdhKeyPair } from '@/lib/meeting/e2ee/keys';

async function keys() {
  const root = await deriveRoot({ secret: randomBytes(32), roomId: 'room-1', epoch: 0 });
  const a = await generateEcdhKeyPair();
  const b = await generateEcdhKeyPair();
  const atA = await derivePairSecret(a.privateKey, b.publicKey);
  const atB = await derivePairSecret(b.privateKey, a.publicKey);
  return {
    aliceSend: await deriveDataKey(atA, root, 'alice', 'bob'),
    aliceReceive: await deriveDataKey(atA, root, 'bob', 'alice'),
    bobSend: await deriveDataKey(atB, root, 'bob', 'alice'),
    bobReceive: await deriveDataKey(atB, root, 'alice', 'bob'),
  };
}

const MESSAGE = JSON.stringify({ type: 'chat', text: 'Grüße 👋' });

describe('data-channel messages', () => {
  it('round-trips a JSON string between the two ends of a pair', async () => {
    const k = await keys();
    const sealed = await sealDataMessage(k.aliceSend, 'alice', 0, MESSAGE);
    expect(await openDataMessage(k.bobReceive, 'alice', sealed)).toEqual({ seq: 0, text: MESSAGE });
    expect(new TextDecoder().decode(sealed)).not.toContain('chat');
  });

  it('uses a fresh random nonce each time', async () => {
    const k = await keys();
    const one = await sealDataMessage(k.aliceSend, 'alice', 0, MESSAGE);
    const two = await sealDataMessage(k.aliceSend, 'alice', 0, MESSAGE);
    expect(Buffer.from(one).equals(Buffer.from(two))).toBe(false);
  });

  it('returns null for any flipped bit, a wrong sender id, or the other direction’s key', async () => {
    const k = await keys();
    const sealed = await sealDataMessage(k.aliceSend, 'alice', 3, MESSAGE);
    for (let bit = 0; bit < sealed.length * 8; bit += 3) {
      const copy = sealed.slice();
      copy[bit >> 3]! ^= 1 << (bit & 7);
      expect(await openDataMessage(k.bobReceive, 'alice', copy)).toBeNull();
    }
    expect(await openDataMessage(k.bobReceive, 'mallory', sealed)).toBeNull();
    expect(await openDataMessage(k.aliceReceive, 'alice', sealed)).toBeNull();
    expect(await openDataMessage(k.bobReceive, 'alice', sealed.subarray(0, 30))).toBeNull();
  });

  it('refuses replayed and reordered messages in a channel', async () => {
    const k = await keys();
    const alice = new DataChannelCipher(k.aliceSend, k.aliceReceive, 'alice', 'bob');
    const bob = new DataChannelCipher(k.bobSend, k.bobReceive, 'bob', 'alice');
    const m0 = await alice.seal('zero');
    const m1 = await alice.seal('one');
    const m2 = await alice.seal('two');
    expect(await bob.open(m0)).toBe('zero');
    expect(await bob.open(m0)).toBeNull();
    expect(await bob.open(m2)).toBe('two');
    expect(await bob.open(m1)).toBeNull();
    expect(await alice.open(await bob.seal('back'))).toBe('back');
  });

  it('refuses bytes that decrypt but are not UTF-8', async () => {
    const k = await keys();
    // Build a valid ciphertext of invalid UTF-8 through the same format.
    const iv = randomBytes(12);
    const seq = new Uint8Array(8);
    const aad = new Uint8Array([...utf8('enclave data v1'), 0, 5, ...utf8('alice'), ...seq]);
    const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, k.aliceSend, new Uint8Array([0xff, 0xfe])));
    const sealed = new Uint8Array([...seq, ...iv, ...ct]);
    expect(await openDataMessage(k.bobReceive, 'alice', sealed)).toBeNull();
  });
});
