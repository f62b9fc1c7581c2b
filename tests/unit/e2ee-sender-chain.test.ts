/** @jest-environment node */
// A receiver follows a sender's ratchet on join from the frames alone (docs/e2ee-crypto.md
// "Rotation", lib/meeting/client/frames/frame-transform.ts setReceiveChain): a frame under
// a later generation of the chain opens with no message, while a frame under a key off the chain,
// beyond reach, or replayed opens nothing and changes nothing.
import { FrameEncryptor } from '@/lib/meeting/e2ee/frame';
import { deriveSFrameKey } from '@/lib/meeting/e2ee/sframe';
import { FOLLOW_GENERATIONS, generateSenderKey, ratchetSenderKey, senderKid, senderMediaBaseKey, type SenderKey } from '@/lib/meeting/e2ee/sender-keys';
import { FrameKeyring } from '@/lib/meeting/client/frames/frame-transform';

const PREFIX = 10;
const SENDER = 'sfu:ada';

async function sealedUnder(key: SenderKey, slot: 'audio' | 'camera' = 'camera') {
  const encryptor = new FrameEncryptor(await deriveSFrameKey(await senderMediaBaseKey(key.key, slot), senderKid(key.generation)));
  return (await encryptor.encrypt(new Uint8Array(40).fill(7), PREFIX))!;
}

async function ratchets(key: SenderKey, steps: number) {
  for (let step = 0; step < steps; step += 1) key = await ratchetSenderKey(key);
  return key;
}

async function receiver(box: SenderKey) {
  const keyring = new FrameKeyring();
  await keyring.setReceiveChain(SENDER, box);
  const open = (sealed: Uint8Array<ArrayBuffer>, slot: 'audio' | 'camera' = 'camera') => keyring.decryptor(SENDER, slot).open(sealed, PREFIX);
  return { keyring, open };
}

describe('following a sender key chain', () => {
  it('opens frames under the box and under every later generation of its chain, on every transceiver', async () => {
    const box = generateSenderKey(3);
    const { open } = await receiver(box);
    expect((await open(await sealedUnder(box))).ok).toBe(true);
    expect((await open(await sealedUnder(await ratchets(box, 1)))).ok).toBe(true);
    // Three joins later, and on another transceiver that never saw the steps between.
    expect((await open(await sealedUnder(await ratchets(box, 4), 'audio'), 'audio')).ok).toBe(true);
    expect((await open(await sealedUnder(await ratchets(box, FOLLOW_GENERATIONS)))).ok).toBe(true);
  });

  it('does not follow past its reach, backwards, or onto a key off the chain', async () => {
    const box = generateSenderKey(10);
    const { open, keyring } = await receiver(box);
    expect(await open(await sealedUnder(await ratchets(box, FOLLOW_GENERATIONS + 1)))).toMatchObject({ ok: false, reason: 'unknown-key' });
    // An older generation is not derivable from the box (one way).
    expect(await open(await sealedUnder(generateSenderKey(9)))).toMatchObject({ ok: false, reason: 'unknown-key' });
    // A fresh key under the next generation's KID (what a leave makes, its box not here yet): not a
    // key we hold, and nothing is kept.
    expect(await open(await sealedUnder(generateSenderKey(11)))).toMatchObject({ ok: false, reason: 'unknown-key' });
    expect(keyring.decryptor(SENDER, 'camera').hasKey(senderKid(11))).toBe(false);
    expect((await open(await sealedUnder(await ratchets(box, 1)))).ok).toBe(true);
    expect(keyring.decryptor(SENDER, 'camera').hasKey(senderKid(11))).toBe(true);
  });

  it('refuses a followed frame replayed, and lets go of keys well behind the one in use', async () => {
    const box = generateSenderKey(0);
    const { open, keyring } = await receiver(box);
    const next = await sealedUnder(await ratchets(box, 1));
    const [first, again] = await Promise.all([open(next), open(next)]);
    expect([first.ok, again.ok].sort()).toEqual([false, true]);
    expect(await open(next)).toMatchObject({ ok: false, reason: 'replay' });
    expect(keyring.decryptor(SENDER, 'camera').hasKey(senderKid(0))).toBe(true);
    expect((await open(await sealedUnder(await ratchets(box, 20)))).ok).toBe(true);
    expect(keyring.decryptor(SENDER, 'camera').hasKey(senderKid(0))).toBe(false);
    expect(keyring.decryptor(SENDER, 'camera').hasKey(senderKid(1))).toBe(false);
  });

  it('a new box replaces the chain: nothing follows the old one any more', async () => {
    const old = generateSenderKey(0);
    const { open, keyring } = await receiver(old);
    const fresh = generateSenderKey(1);
    await keyring.setReceiveChain(SENDER, fresh);
    expect((await open(await sealedUnder(await ratchets(fresh, 1)))).ok).toBe(true);
    // The old chain's next generation (3 = old + 3) is not followed any more.
    expect(await open(await sealedUnder(await ratchets(old, 3)))).toMatchObject({ ok: false, reason: 'unknown-key' });
    // A frame that fails under a key we were given is still counted as such.
    const forged = await sealedUnder({ generation: 1, key: generateSenderKey(1).key });
    expect(await open(forged)).toMatchObject({ ok: false, reason: 'auth' });
  });
});
