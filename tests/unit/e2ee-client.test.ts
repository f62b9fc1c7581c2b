/** @jest-environment node */
// Frame encryption without a browser: the page's backend and the worker's core, joined by an
// in-process stand-in for the Worker, and fake RTCRtpSenders/Receivers whose encoded streams are
// plain TransformStreams; the envelopes participants send each other, and the host's rekey message.
import { randomBytes } from '@/lib/meeting/e2ee/bytes';
import { decodeHeader } from '@/lib/meeting/e2ee/sframe';
import { parseEnvelope, parseSignalBody } from '@/lib/meeting/client/keys/envelope';
import { WorkerBackend } from '@/lib/meeting/client/frames/frame-backends';
import { fakeEndpoint, inProcessWorker } from '../support/frame-worker-fakes';
import { parsePeerMessage } from '@/lib/meeting/client/call/peer-messages';

/** Chromium's path: encoded streams handed to the worker. */
const streamsBackend = () => new WorkerBackend('streams', inProcessWorker());

const PEER = 'peer-b';
const baseKey = randomBytes(32);

describe('frame encryption in the worker, fed by encoded streams', () => {
  it('drops every frame until a key is set (fail-closed), then sends only ciphertext the other side opens', async () => {
    const sending = streamsBackend();
    const receiving = streamsBackend();
    const tx = fakeEndpoint();
    const rx = fakeEndpoint();
    sending.attachSender(PEER, 'camera', tx.endpoint as unknown as RTCRtpSender);
    receiving.attachReceiver('peer-a', 'camera', rx.endpoint as unknown as RTCRtpReceiver);

    const frame = randomBytes(300);
    await tx.send(frame, 'key');
    expect(await tx.nextSoon()).toBeNull();
    expect((await sending.stats())[PEER]!.sent.withheld).toBe(1);

    await sending.setSendKey(PEER, 'camera', 'k1', BigInt(0), baseKey);
    await receiving.setReceiveKey('peer-a', 'camera', BigInt(0), baseKey);
    await tx.send(frame, 'key');
    const sealed = (await tx.next())!;
    // VP8 key frame: 10 bytes in clear, then the SFrame header and ciphertext.
    expect(sealed.subarray(0, 10)).toEqual(frame.subarray(0, 10));
    expect(Buffer.from(sealed).includes(Buffer.from(frame.subarray(10, 40)))).toBe(false);
    await rx.send(sealed, 'key');
    expect(await rx.next()).toEqual(frame);
    // The same frame again is a replay; a flipped bit in the next one fails authentication.
    // Both are dropped and counted, never passed on.
    await rx.send(sealed, 'key');
    expect(await rx.nextSoon()).toBeNull();
    await tx.send(frame, 'key');
    const tampered = (await tx.next())!.slice();
    tampered[tampered.length - 1]! ^= 1;
    await rx.send(tampered, 'key');
    expect(await rx.nextSoon()).toBeNull();
    expect((await receiving.stats())['peer-a']!.received).toMatchObject({ decrypted: 1, failed: { replay: 1, auth: 1 } });
  });

  it("a receiver attached under a name opens whichever sender's frames it is routed to (the SFU reuses receivers)", async () => {
    const ada = streamsBackend();
    const bob = streamsBackend();
    const receiving = streamsBackend();
    const [adaTx, bobTx, rx] = [fakeEndpoint(), fakeEndpoint(), fakeEndpoint()];
    ada.attachSender('sfu', 'camera', adaTx.endpoint as unknown as RTCRtpSender);
    bob.attachSender('sfu', 'camera', bobTx.endpoint as unknown as RTCRtpSender);
    receiving.attachReceiver('sfu-mid:1', 'camera', rx.endpoint as unknown as RTCRtpReceiver);
    const [adaKey, bobKey] = [randomBytes(32), randomBytes(32)];
    await ada.setSendKey('sfu', 'camera', 'a', BigInt(0), adaKey);
    await bob.setSendKey('sfu', 'camera', 'b', BigInt(0), bobKey);
    await receiving.setReceiveKey('sfu:ada', 'camera', BigInt(0), adaKey);
    await receiving.setReceiveKey('sfu:bob', 'camera', BigInt(0), bobKey);
    const frame = randomBytes(200);
    const sealedBy = async (tx: ReturnType<typeof fakeEndpoint>) => {
      await tx.send(frame, 'key');
      return (await tx.next())!;
    };

    await receiving.route('sfu-mid:1', 'sfu:ada', 'camera');
    await rx.send(await sealedBy(adaTx), 'key');
    expect(await rx.next()).toEqual(frame);
    // Janus gives the transceiver to Bob: his frames open, and are counted as his; Ada's no longer.
    await receiving.route('sfu-mid:1', 'sfu:bob', 'camera');
    await rx.send(await sealedBy(bobTx), 'key');
    expect(await rx.next()).toEqual(frame);
    await rx.send(await sealedBy(adaTx), 'key');
    expect(await rx.nextSoon()).toBeNull();
    const stats = await receiving.stats();
    expect(stats['sfu:ada']!.received.decrypted).toBe(1);
    expect(stats['sfu:bob']!.received).toMatchObject({ decrypted: 1, failed: { auth: 1 } });
  });

  it('keeps counting from where it was when the same key comes back (a reconnect never reuses a nonce)', async () => {
    const backend = streamsBackend();
    const first = fakeEndpoint();
    backend.attachSender(PEER, 'audio', first.endpoint as unknown as RTCRtpSender);
    await backend.setSendKey(PEER, 'audio', 'same-key', BigInt(0), baseKey);
    const counters: bigint[] = [];
    for (let i = 0; i < 3; i += 1) {
      await first.send(randomBytes(50));
      counters.push(decodeHeader((await first.next())!, 1)!.ctr);
    }
    // The link is made again: a new sender, the same key id.
    const second = fakeEndpoint();
    backend.attachSender(PEER, 'audio', second.endpoint as unknown as RTCRtpSender);
    await backend.setSendKey(PEER, 'audio', 'same-key', BigInt(0), baseKey);
    await second.send(randomBytes(50));
    counters.push(decodeHeader((await second.next())!, 1)!.ctr);
    expect(counters).toEqual([BigInt(0), BigInt(1), BigInt(2), BigInt(3)]);
  });

  it('withholding keys stops every frame', async () => {
    const backend = streamsBackend();
    const tx = fakeEndpoint();
    backend.attachSender(PEER, 'screen', tx.endpoint as unknown as RTCRtpSender);
    await backend.setSendKey(PEER, 'screen', 'k', BigInt(0), baseKey);
    await backend.withhold(true);
    await tx.send(randomBytes(100));
    expect(await tx.nextSoon()).toBeNull();
    await backend.withhold(false);
    await tx.send(randomBytes(100));
    expect(await tx.next()).not.toBeNull();
  });
  it('a key the worker cannot derive rejects on the page instead of leaving it waiting', async () => {
    const backend = streamsBackend();
    await expect(backend.setSendKey(PEER, 'audio', 'bad', BigInt(-1), baseKey)).rejects.toThrow('could not set the key');
    await expect(backend.setReceiveKey(PEER, 'audio', BigInt(-1), baseKey)).rejects.toThrow('could not set the key');
  });

  it('a worker that fails rejects what waits for it and what asks it later, instead of leaving key exchange hanging', async () => {
    const worker = inProcessWorker();
    const backend = new WorkerBackend('streams', worker);
    await backend.setSendKey(PEER, 'audio', 'before', BigInt(0), baseKey);
    const waiting = backend.stats();
    worker.crash();
    await expect(waiting).rejects.toThrow('worker failed');
    await expect(backend.setReceiveKey(PEER, 'audio', BigInt(0), baseKey)).rejects.toThrow('worker failed');
  });

  it('samples the frames it seals for the ciphertext proof: the bytes after the prefix never match', async () => {
    const backend = streamsBackend();
    const tx = fakeEndpoint();
    backend.attachSender(PEER, 'camera', tx.endpoint as unknown as RTCRtpSender);
    await backend.setSendKey(PEER, 'camera', 'sampled', BigInt(0), baseKey);
    const sampled = backend.sampleFrames(2);
    // Messages to the worker keep their order: once this answer is back, sampling has started,
    // and no frame below can pass before it (a frame that did made the test wait forever).
    await backend.stats();
    // Too short to sample (under 64 bytes after the prefix), then two that count.
    for (const size of [40, 500, 700]) {
      await tx.send(randomBytes(size));
      expect(await tx.next()).not.toBeNull();
    }
    const samples = await sampled;
    expect(samples.map((sample) => sample.plain.length)).toEqual([497, 697]);
    for (const { plain, sealed } of samples) expect(sealed.slice(4, 68)).not.toEqual(plain.slice(0, 64));
  });
});

describe('envelopes and peer messages are checked before use', () => {
  const announcement = { id: 'a', signingKey: 'AAAA', ecdhKey: 'BBBB', fingerprint: 'sha-256 AB:CD', tag: 'CCCC' };

  it('accepts the four kinds and refuses anything else', () => {
    expect(parseEnvelope(JSON.stringify({ k: 'hello', announcement, reply: false }))?.k).toBe('hello');
    expect(parseEnvelope(JSON.stringify({ k: 'handoff-request', key: 'AAAA' }))?.k).toBe('handoff-request');
    expect(parseEnvelope(JSON.stringify({ k: 'handoff', holderKey: 'AAAA', box: 'BBBB' }))?.k).toBe('handoff');
    expect(parseEnvelope(JSON.stringify({ k: 'signed', signal: { from: 'a', to: 'b', seq: 1, body: {}, sig: 'AAAA' } }))?.k).toBe('signed');
    for (const text of [
      '{not json',
      JSON.stringify({ k: 'shout' }),
      JSON.stringify({ k: 'hello', announcement: { ...announcement, tag: 'not base64url!' }, reply: false }),
      JSON.stringify({ k: 'handoff-request', key: 'A'.repeat(600) }),
      JSON.stringify({ k: 'signed', signal: { from: 'a', to: 'b', seq: 0, body: {}, sig: 'AAAA' } }),
    ]) {
      expect(parseEnvelope(text)).toBeNull();
    }
  });

  it('keeps only the known fields, and checks each one', () => {
    const extra = { evil: true };
    expect(parseEnvelope(JSON.stringify({ k: 'hello', announcement: { ...announcement, ...extra }, reply: true, ...extra }))).toEqual({
      k: 'hello',
      announcement,
      reply: true,
    });
    // JSON.parse makes "__proto__" an own key: it is dropped like any other, and pollutes nothing.
    const polluting = `{"k":"handoff-request","key":"AAAA","__proto__":{"polluted":true}}`;
    const parsed = parseEnvelope(polluting);
    expect(parsed).toEqual({ k: 'handoff-request', key: 'AAAA' });
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    // A message to everyone has no recipient; the body is only checked once the signature is.
    const signal = { from: 'a', to: null, seq: 7, body: { anything: [1] }, sig: 'AAAA' };
    expect(parseEnvelope(JSON.stringify({ k: 'signed', signal: { ...signal, extra: 1 } }))).toEqual({ k: 'signed', signal });
    expect(parseEnvelope(JSON.stringify({ k: 'handoff', holderKey: 'AAAA', box: 'BBBB', extra: 1 }))).toEqual({ k: 'handoff', holderKey: 'AAAA', box: 'BBBB' });
    for (const text of [
      'null',
      '[]',
      JSON.stringify([{ k: 'handoff-request', key: 'AAAA' }]),
      JSON.stringify({ k: 'hello', announcement, reply: 'yes' }),
      JSON.stringify({ k: 'hello', announcement: { ...announcement, id: '' }, reply: false }),
      JSON.stringify({ k: 'hello', announcement: { ...announcement, fingerprint: 'x'.repeat(201) }, reply: false }),
      JSON.stringify({ k: 'hello', announcement: [announcement], reply: false }),
      JSON.stringify({ k: 'handoff', holderKey: 'AAAA' }),
      JSON.stringify({ k: 'signed', signal: { ...signal, seq: 1.5 } }),
      JSON.stringify({ k: 'signed', signal: { ...signal, seq: '7' } }),
      JSON.stringify({ k: 'signed', signal: { ...signal, to: 'x'.repeat(65) } }),
      JSON.stringify({ k: 'signed', signal: { ...signal, from: undefined } }),
      JSON.stringify({ k: 'signed', signal: { ...signal, sig: 'AA+A' } }),
    ]) {
      expect(parseEnvelope(text)).toBeNull();
    }
  });

  it('a candidate keeps the fields it came with, each within its bounds', () => {
    const full = { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'abcd' };
    expect(parseSignalBody({ candidate: { ...full, extra: 1 } })).toEqual({ candidate: full });
    expect(parseSignalBody({ candidate: { candidate: full.candidate } })).toEqual({ candidate: { candidate: full.candidate } });
    expect(parseSignalBody({ candidate: { candidate: '', sdpMid: null, sdpMLineIndex: null } })).toEqual({
      candidate: { candidate: '', sdpMid: null, sdpMLineIndex: null },
    });
    expect(parseSignalBody({ description: { type: 'answer', sdp: 'v=0', extra: 1 }, candidate: null })).toEqual({
      description: { type: 'answer', sdp: 'v=0' },
    });
    expect(parseSignalBody({ description: { type: 'rollback' } })).toEqual({ description: { type: 'rollback' } });
    for (const body of [
      {},
      [],
      null,
      { candidate: { ...full, sdpMLineIndex: 65 } },
      { candidate: { ...full, sdpMLineIndex: -1 } },
      { candidate: { ...full, sdpMLineIndex: 0.5 } },
      { candidate: { ...full, sdpMid: 0 } },
      { candidate: { ...full, usernameFragment: 'x'.repeat(257) } },
      { candidate: { ...full, candidate: 'x'.repeat(2049) } },
      { candidate: 'candidate:1' },
      { description: { type: 'offer', sdp: 1 } },
    ]) {
      expect(parseSignalBody(body)).toBeNull();
    }
  });

  it('a signed body is one description or one candidate', () => {
    expect(parseSignalBody({ description: { type: 'offer', sdp: 'v=0' } })).not.toBeNull();
    expect(parseSignalBody({ candidate: null })).not.toBeNull();
    expect(parseSignalBody({ description: { type: 'bogus' } })).toBeNull();
    expect(parseSignalBody({ description: { type: 'offer', sdp: 'x'.repeat(20_000) } })).toBeNull();
    expect(parseSignalBody('hello')).toBeNull();
  });

  it('a rekey carries a later epoch and a 32-byte secret, or is ignored', () => {
    const secret = 'A'.repeat(43);
    expect(parsePeerMessage({ t: 'rekey', epoch: 1, secret })).toEqual({ t: 'rekey', epoch: 1, secret });
    expect(parsePeerMessage({ t: 'rekey', epoch: 0, secret })).toBeNull();
    expect(parsePeerMessage({ t: 'rekey', epoch: 1.5, secret })).toBeNull();
    expect(parsePeerMessage({ t: 'rekey', epoch: 1, secret: 'short' })).toBeNull();
  });
});
