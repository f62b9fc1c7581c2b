/** @jest-environment node */
// Frames whose sender is proven (docs/e2ee-crypto.md "Sender proof"): through the SFU every receiver
// holds each sender's key, so one of them can seal a frame in another's name; the signature only
// the sender can make is what tells them apart. Real keys, rings and the worker's transforms.
import { deriveSFrameKey } from '@/lib/meeting/e2ee/sframe';
import { FrameEncryptor } from '@/lib/meeting/e2ee/frame';
import { checkFrame, FRAME_PROOF_LENGTH, generateFrameProofKey, importFrameProofKey, proveFrame } from '@/lib/meeting/e2ee/frame-proof';
import { senderKid, senderMediaBaseKey } from '@/lib/meeting/e2ee/sender-keys';
import { decryptingTransform, encryptingTransform, type EncodedFrame } from '@/lib/meeting/client/frames/frame-transform';
import { newCounters } from '@/lib/meeting/client/frames/frame-counters';
import { SFU_SEND, sfuPeer } from '@/lib/meeting/client/sfu/sender-key-ring';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import { room } from '../support/sender-key-room';

/** Runs frames through a transform, as the worker pipes them. */
async function through(transform: TransformStream<EncodedFrame, EncodedFrame>, frames: EncodedFrame[]): Promise<EncodedFrame[]> {
  const out: EncodedFrame[] = [];
  const reading = transform.readable.pipeTo(new WritableStream({ write: (frame) => void out.push(frame) }));
  const writer = transform.writable.getWriter();
  for (const frame of frames) await writer.write(frame);
  await writer.close();
  await reading;
  return out;
}

/** A VP8 key frame: 10 bytes in clear, then the picture. */
const keyFrame = (fill: number): EncodedFrame => ({ type: 'key', data: new Uint8Array(200).fill(fill).buffer });

describe('frame proof', () => {
  it('a signature opens for its key only, over exactly the sealed bytes', async () => {
    const [ada, mallory] = await Promise.all([generateFrameProofKey(), generateFrameProofKey()]);
    const sealed = new Uint8Array(120).fill(7) as Bytes;
    const proven = await proveFrame(ada.privateKey, sealed);
    expect(proven.length).toBe(sealed.length + FRAME_PROOF_LENGTH);
    expect(await checkFrame(await importFrameProofKey(ada.publicKey), proven)).toEqual(sealed);
    expect(await checkFrame(await importFrameProofKey(mallory.publicKey), proven)).toBeNull();
    const altered = proven.slice();
    altered[3] = altered[3]! ^ 1;
    expect(await checkFrame(await importFrameProofKey(ada.publicKey), altered)).toBeNull();
    expect(await checkFrame(await importFrameProofKey(ada.publicKey), proven.subarray(0, FRAME_PROOF_LENGTH))).toBeNull();
  });

  it("a receiver drops and counts a frame another participant sealed with the sender's key; the sender's own pass", async () => {
    const { keyrings, rings, settle, sent, open } = await room(['ada', 'bob', 'mallory']);
    await Promise.all(Object.values(rings).map((ring) => ring.start()));
    await settle();

    // Ada's frames, sealed and signed as her worker does, open for Bob.
    const adaSends = () =>
      encryptingTransform(
        'video',
        () => keyrings.ada!.encryptor(SFU_SEND, 'camera'),
        newCounters(),
        undefined,
        () => keyrings.ada!.signer(SFU_SEND),
      );
    const genuine = await through(adaSends(), [keyFrame(1), keyFrame(2)]);
    expect(genuine).toHaveLength(2);
    const bobCounters = newCounters();
    const bobOpening = {
      decryptor: keyrings.bob!.decryptor(sfuPeer('ada'), 'camera'),
      counters: bobCounters,
      verifier: () => keyrings.bob!.verifier(sfuPeer('ada')),
    };
    const opened = await through(
      decryptingTransform('video', () => bobOpening),
      genuine,
    );
    expect(opened.map((frame) => new Uint8Array(frame.data)[50])).toEqual([1, 2]);

    // Mallory was handed Ada's key like everyone: she seals a frame under it, with Ada's KID and a fresh counter.
    const box = sent.find((entry) => entry.from === 'ada' && entry.to === 'mallory')!;
    const adaKey = (await open('mallory', 'ada', box.generation, box.box))!;
    const forger = new FrameEncryptor(await deriveSFrameKey(await senderMediaBaseKey(adaKey.key, 'camera'), senderKid(box.generation)));
    for (let skip = 0; skip < 5; skip += 1) await forger.encrypt(new Uint8Array(20), 10);
    const forgedSealed = (await forger.encrypt(new Uint8Array(200).fill(9), 10))!;
    // Without the proof the forgery would open: the attack is real.
    const unchecked = keyrings.bob!.decryptor(sfuPeer('ada'), 'camera');
    expect((await unchecked.open(forgedSealed.slice(), 10)).ok).toBe(true);

    // Signed with Mallory's own frame key, or unsigned: Bob drops both and counts them.
    const signedByMallory = await proveFrame(keyrings.mallory!.signer(SFU_SEND)!, (await forger.encrypt(new Uint8Array(200).fill(9), 10))!);
    const bare = (await forger.encrypt(new Uint8Array(200).fill(9), 10))!;
    const afterForgery = await through(
      decryptingTransform('video', () => bobOpening),
      [
        { type: 'key', data: signedByMallory.buffer },
        { type: 'key', data: bare.buffer },
      ],
    );
    expect(afterForgery).toEqual([]);
    expect(bobCounters.failed.forged).toBe(2);
    expect(bobCounters.decrypted).toBe(2);

    // Ada's next frame still passes.
    const next = await through(adaSends(), [keyFrame(3)]);
    expect(
      await through(
        decryptingTransform('video', () => bobOpening),
        next,
      ),
    ).toHaveLength(1);
    expect(bobCounters.failed.forged).toBe(2);
    for (const ring of Object.values(rings)) ring.stop();
  });
});
