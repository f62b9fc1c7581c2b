/** @jest-environment node */
import { base64urlDecode, base64urlEncode, randomBytes, toHex } from '@/lib/meeting/e2ee/bytes';
import { createHandoffRequest, openHandoff, sealHandoff, type HandoffContext } from '@/lib/meeting/e2ee/handoff';

const CONTEXT: HandoffContext = { roomId: 'room-1', newcomerId: 'nora', holderId: 'hana' };

function flip(text: string, index: number): string {
  const bytes = base64urlDecode(text)!;
  bytes[index]! ^= 1;
  return base64urlEncode(bytes);
}

describe('key handoff', () => {
  it('delivers S and the epoch, and both sides see the same code', async () => {
    const request = await createHandoffRequest();
    expect(request.privateKey.extractable).toBe(false);
    const secret = randomBytes(32);
    const { handoff, code } = await sealHandoff(CONTEXT, request.publicKey, secret, 4);
    const opened = await openHandoff(CONTEXT, request, handoff);
    expect(opened).not.toBeNull();
    expect(toHex(opened!.secret)).toBe(toHex(secret));
    expect(opened!.epoch).toBe(4);
    expect(opened!.code).toEqual(code);
    expect(code.digits).toMatch(/^\d{5} \d{5} \d{5}$/);
    expect(code.emoji).toHaveLength(8);
    expect(handoff.box).not.toContain(base64urlEncode(secret).slice(0, 10));
  });

  it('shows different codes when a relay substitutes its own keys', async () => {
    const newcomer = await createHandoffRequest();
    const relay = await createHandoffRequest();
    // The relay hands the holder its own key instead of the newcomer's…
    const { handoff: toRelay, code: holderSees } = await sealHandoff(CONTEXT, relay.publicKey, randomBytes(32), 1);
    const stolen = await openHandoff(CONTEXT, relay, toRelay);
    expect(stolen).not.toBeNull(); // …and can read S (trust on first use)…
    // …then re-encrypts it to the newcomer, but the codes cannot match.
    const { handoff: toNewcomer } = await sealHandoff(CONTEXT, newcomer.publicKey, stolen!.secret, 1);
    const newcomerSees = (await openHandoff(CONTEXT, newcomer, toNewcomer))!.code;
    expect(newcomerSees.digits).not.toBe(holderSees.digits);
    expect(newcomerSees.emoji).not.toEqual(holderSees.emoji);
  });

  it('refuses tampered packages, the wrong recipient and a different context', async () => {
    const request = await createHandoffRequest();
    const { handoff } = await sealHandoff(CONTEXT, request.publicKey, randomBytes(32), 1);
    expect(await openHandoff(CONTEXT, request, { ...handoff, box: flip(handoff.box, 0) })).toBeNull(); // nonce
    expect(await openHandoff(CONTEXT, request, { ...handoff, box: flip(handoff.box, 20) })).toBeNull(); // ciphertext
    expect(await openHandoff(CONTEXT, request, { ...handoff, box: flip(handoff.box, 59) })).toBeNull(); // tag
    expect(await openHandoff(CONTEXT, request, { ...handoff, holderKey: flip(handoff.holderKey, 40) })).toBeNull();
    expect(await openHandoff(CONTEXT, request, { ...handoff, box: 'AAAA' })).toBeNull();
    const other = await createHandoffRequest();
    expect(await openHandoff(CONTEXT, other, handoff)).toBeNull();
    expect(await openHandoff({ ...CONTEXT, newcomerId: 'eve' }, request, handoff)).toBeNull();
    expect(await openHandoff({ ...CONTEXT, roomId: 'room-2' }, request, handoff)).toBeNull();
  });

  it('refuses to send anything but a 32-byte secret', async () => {
    const request = await createHandoffRequest();
    await expect(sealHandoff(CONTEXT, request.publicKey, randomBytes(16), 1)).rejects.toThrow(RangeError);
  });
});
