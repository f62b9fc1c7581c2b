/** @jest-environment node */
// The large-room benchmark's Node participant (bench/large-room) speaks the app's frame format:
// the Opus frames it seals and puts in RTP open in the browser's own receive path (the worker's
// core behind the page's backend), and what a browser's sender seals opens in the Node peer.
// Keys come from the app's key exchange (MeetingCrypto announcements) on both sides.
import { randomBytes } from '@/lib/meeting/e2ee/bytes';
import { generateRoomSecret } from '@/lib/meeting/e2ee/keys';
import { WorkerBackend } from '@/lib/meeting/client/frames/frame-backends';
import { NodeFrames } from '@/bench/large-room/node-frames';
import { opusFrames } from '@/bench/large-room/opus-frames';
import { newRtpSender, rtpPacket, rtpPayload } from '@/bench/large-room/rtp';
import { fakeEndpoint, inProcessWorker } from '../support/frame-worker-fakes';
import { cryptoParticipant } from '../support/meeting-participant';

describe('the Node participant of the large-room benchmark', () => {
  it('sends Opus frames in RTP that the browser decrypts, and opens what the browser sends', async () => {
    const secret = generateRoomSecret();
    const nodeFrames = new NodeFrames();
    const browserFrames = new WorkerBackend('streams', inProcessWorker());
    const node = await cryptoParticipant('node-a', nodeFrames, secret);
    const browser = await cryptoParticipant('browser-b', browserFrames, secret);
    expect(await node.acceptAnnouncement(browser.announcement()!)).toBe('ok');
    expect(await browser.acceptAnnouncement(node.announcement()!)).toBe('ok');
    // The frame keys are made after the announcement is accepted (issue 17).
    await Promise.all([node.framesReady('browser-b'), browser.framesReady('node-a')]);

    // Node → browser: sealed, in RTP, unpacked as the browser's depacketizer would, decrypted by the worker.
    const receiver = fakeEndpoint();
    browser.attachReceiver('node-a', 'audio', receiver.endpoint as unknown as RTCRtpReceiver);
    const [opus] = opusFrames(0.04);
    const sealed = await nodeFrames.sealAudio('browser-b', opus!);
    expect(sealed![0]).toBe(opus![0]); // the TOC byte stays in clear
    expect(Buffer.from(sealed!).includes(Buffer.from(opus!.subarray(1, 17)))).toBe(false);
    const packet = rtpPacket(newRtpSender(111), sealed!, 960);
    await receiver.send(new Uint8Array(rtpPayload(packet)!));
    expect(await receiver.next()).toEqual(opus);
    expect((await browserFrames.stats())['node-a']!.received.decrypted).toBe(1);

    // Browser → Node: the worker seals what the page's audio sender produces; the Node peer opens it.
    const sender = fakeEndpoint();
    browser.attachSender('node-a', 'audio', sender.endpoint as unknown as RTCRtpSender);
    const spoken = randomBytes(80);
    await sender.send(spoken);
    const fromBrowser = await sender.next();
    expect(await nodeFrames.openAudio('browser-b', fromBrowser!)).toEqual(spoken);
    // A replay is refused and counted, as the browser counts it.
    expect(await nodeFrames.openAudio('browser-b', fromBrowser!)).toBeNull();
    expect((await nodeFrames.stats())['browser-b']!.received).toMatchObject({ decrypted: 1, failed: { replay: 1 } });
  });

  it('finds the payload after CSRCs, a header extension and padding, and skips RTCP', () => {
    const payload = Uint8Array.from([9, 8, 7]);
    const packet = Buffer.concat([
      Buffer.from([0xb1, 111, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]),
      Buffer.alloc(4),
      Buffer.from([0xbe, 0xde, 0, 1, 1, 2, 3, 4]),
      payload,
      Buffer.from([0, 2]),
    ]);
    expect(rtpPayload(packet)).toEqual(payload);
    expect(rtpPayload(Buffer.from([0x80, 200, 0, 6, 0, 0, 0, 1, 0, 0, 0, 0]))).toBeNull();
  });
});
