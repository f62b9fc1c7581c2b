/** @jest-environment node */
// Sender keys through the SFU (docs/e2ee-crypto.md "Sender keys"): the seal binds room, sender,
// receiver and generation; one encryption opens for every receiver holding the key; after a
// leave, the one who left holds nothing that opens the frames sent under the new key.
import { hkdfSync } from 'node:crypto';
import { base64urlDecode, base64urlEncode, concatBytes, field, utf8, type Bytes } from '@/lib/meeting/e2ee/bytes';
import { derivePairSecret, generateEcdhKeyPair, kidFor } from '@/lib/meeting/e2ee/keys';
import {
  deriveSealKey,
  generateSenderKey,
  openSenderKey,
  sealSenderKey,
  senderKid,
  senderMediaBaseKey,
  SENDER_KEY_LABELS,
} from '@/lib/meeting/e2ee/sender-keys';
import { ROTATE_DEBOUNCE_MS, SWITCH_DELAY_MS } from '@/lib/meeting/client/sfu/sender-key-ring';
import { room, sendAndOpen } from '../support/sender-key-room';
import { parseSignalBody } from '@/lib/meeting/client/keys/envelope';

async function pairOf() {
  const [a, b] = await Promise.all([generateEcdhKeyPair(), generateEcdhKeyPair()]);
  return { ab: await derivePairSecret(a.privateKey, b.publicKey), ba: await derivePairSecret(b.privateKey, a.publicKey) };
}

describe('sealing a sender key', () => {
  it('opens for its receiver only, in its room and generation', async () => {
    const { ab, ba } = await pairOf();
    const context = { roomId: 'room', senderId: 'alice', receiverId: 'bob' };
    const key = generateSenderKey(3);
    const box = await sealSenderKey(await deriveSealKey(ab, 'alice', 'bob'), context, key);
    const bobKey = await deriveSealKey(ba, 'alice', 'bob');
    expect((await openSenderKey(bobKey, context, 3, box))?.key).toEqual(key.key);
    // Another generation, room or receiver named in the AAD, or one changed byte: nothing.
    expect(await openSenderKey(bobKey, context, 4, box)).toBeNull();
    expect(await openSenderKey(bobKey, { ...context, roomId: 'other' }, 3, box)).toBeNull();
    expect(await openSenderKey(bobKey, { ...context, receiverId: 'carol' }, 3, box)).toBeNull();
    const bytes = base64urlDecode(box)!;
    bytes[20] = bytes[20]! ^ 1;
    expect(await openSenderKey(bobKey, context, 3, base64urlEncode(bytes))).toBeNull();
    // The other direction's seal key, or another pair's, does not open it either.
    expect(await openSenderKey(await deriveSealKey(ba, 'bob', 'alice'), context, 3, box)).toBeNull();
    const other = await pairOf();
    expect(await openSenderKey(await deriveSealKey(other.ba, 'alice', 'bob'), context, 3, box)).toBeNull();
  });

  it('derives each transceiver its own SFrame base key, as docs/e2ee-crypto.md pins it', async () => {
    const key = new Uint8Array(32).fill(1) as Bytes;
    const camera = await senderMediaBaseKey(key, 'camera');
    const expected = hkdfSync('sha512', key, new Uint8Array(0), concatBytes(utf8(SENDER_KEY_LABELS.media), field('camera')), 32);
    expect(Buffer.from(camera)).toEqual(Buffer.from(expected));
    expect(camera).not.toEqual(await senderMediaBaseKey(key, 'audio'));
    expect(senderKid(2)).toBe(kidFor(2, 0));
  });

  it('refuses boxes of the wrong shape in a signal body', () => {
    expect(parseSignalBody({ senderKey: { generation: 1, box: 'abc_-' } })).toEqual({ senderKey: { generation: 1, box: 'abc_-' } });
    expect(parseSignalBody({ senderKey: { generation: -1, box: 'abc' } })).toBeNull();
    expect(parseSignalBody({ senderKey: { generation: 2 ** 32, box: 'abc' } })).toBeNull();
    expect(parseSignalBody({ senderKey: { generation: 1, box: 'not base64!' } })).toBeNull();
  });
});

describe('SenderKeyRing', () => {
  it('one encryption opens for every receiver; after a leave the leaver opens nothing new', async () => {
    const { keyrings, rings, present, settle } = await room(['ada', 'bob', 'cy']);
    await Promise.all(Object.values(rings).map((ring) => ring.start()));
    await settle();
    expect((await sendAndOpen(keyrings, 'ada', 'bob')).ok).toBe(true);
    expect((await sendAndOpen(keyrings, 'ada', 'cy')).ok).toBe(true);

    present.delete('cy');
    rings.ada!.peerLeft('cy');
    rings.bob!.peerLeft('cy');
    await new Promise((resolve) => setTimeout(resolve, ROTATE_DEBOUNCE_MS + 50));
    await settle();
    // Given out, not yet used: frames still open for everyone who had the old key.
    expect((await sendAndOpen(keyrings, 'ada', 'bob')).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, SWITCH_DELAY_MS + 100));
    expect(rings.ada!.generation).toBe(1);
    expect((await sendAndOpen(keyrings, 'ada', 'bob')).ok).toBe(true);
    // Cy's worker tries the ratchet of Ada's old key under that KID, but the leave made a fresh one:
    // not a key Cy holds.
    const leaver = await sendAndOpen(keyrings, 'ada', 'cy');
    expect(leaver).toMatchObject({ ok: false, reason: 'unknown-key' });
    for (const ring of Object.values(rings)) ring.stop();
  });

  it('installs a sender key once: a repeated box, or one from someone who left, changes nothing', async () => {
    const { keyrings, rings, settle, sent } = await room(['ada', 'bob']);
    await rings.ada!.start();
    await settle();
    expect(sent).toHaveLength(1);
    expect((await sendAndOpen(keyrings, 'ada', 'bob')).ok).toBe(true);
    const [first] = sent;
    expect(await rings.bob!.receive('ada', first!.generation, first!.box)).toBe(false);
    // The box claims another generation than it was sealed for: refused.
    expect(await rings.bob!.receive('ada', 7, first!.box)).toBe(false);
    rings.bob!.peerLeft('ada');
    expect(await rings.bob!.receive('ada', 0, first!.box)).toBe(false);
    for (const ring of Object.values(rings)) ring.stop();
  });
});
