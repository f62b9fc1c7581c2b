/** @jest-environment node */
// PeerLink's negotiation in Node: perfect negotiation, codec order and our candidates (the first
// burst in the description, the rest trickling, theirs queued until their description). Its data
// channel, restarts and encodings: meeting-peer-link-lifecycle.test.ts.
import { CANDIDATE_QUIET_MS, CANDIDATE_WAIT_MS, candidateKey, candidatesIn, dialsOutOnly } from '@/lib/meeting/client/links/local-candidates';
import { codecOrder, leadsWithPreferredCodecs, withoutUnlistedPayloads } from '@/lib/meeting/client/links/codecs';
import type { PeerLinkOptions, SignalPayload } from '@/lib/meeting/client/links/peer';
import { candidate, link, offer, settle, installFakeWebRtc } from '../support/fake-peer-connection';

installFakeWebRtc();

describe('PeerLink', () => {
  it('the initiator makes the three transceivers up front, each with its transform, and sends its tracks', async () => {
    const { pc, attached } = link();
    expect(pc.transceivers.map((t) => t.kind)).toEqual(['audio', 'video', 'video']);
    expect(attached).toEqual(['send:audio', 'receive:audio', 'send:camera', 'receive:camera', 'send:screen', 'receive:screen']);
    await settle();
    expect(pc.transceivers.map((t) => (t.sender.track as { id: string } | null)?.id ?? null)).toEqual(['mic', 'cam', null]);
  });

  it('one bundled transport: candidates are gathered once for all media and the data channel', () => {
    expect(link().pc.config.bundlePolicy).toBe('max-bundle');
    expect(link({ rtcConfig: { iceTransportPolicy: 'relay' } }).pc.config).toMatchObject({ bundlePolicy: 'max-bundle', iceTransportPolicy: 'relay' });
  });

  it('the initiator offers at once (Opus DTX on, video starting at the given bitrate), once even if the browser then says negotiation is needed; the answering side waits', async () => {
    const initiator = link({ startBitrateKbps: () => 1000 });
    // The browser's event, a task later: the offer is already being made.
    initiator.pc.onnegotiationneeded?.();
    await settle();
    expect(initiator.signals).toHaveLength(1);
    expect(initiator.signals[0]!.description?.type).toBe('offer');
    expect(initiator.signals[0]!.description?.sdp).toContain('usedtx=1');
    expect(initiator.signals[0]!.description?.sdp).toContain('x-google-start-bitrate=1000');
    expect(initiator.peer.negotiations).toBe(1);

    const answering = link({ initiator: false, polite: true });
    answering.pc.onnegotiationneeded?.();
    await settle();
    expect(answering.signals).toEqual([]);
  });

  it('an offer to the answering side adopts its transceivers, attaches the senders and answers', async () => {
    const { peer, pc, signals, attached } = link({ initiator: false, polite: true });
    await peer.handleSignal(offer);
    expect(attached).toEqual(['send:audio', 'send:camera', 'send:screen']);
    expect(pc.transceivers.every((t) => t.direction === 'sendrecv')).toBe(true);
    expect(signals.map((s) => s.description?.type)).toEqual(['answer']);
    expect(peer.negotiations).toBe(1);
    await settle();
    expect(pc.transceivers.map((t) => (t.sender.track as { id: string } | null)?.id ?? null)).toEqual(['mic', 'cam', null]);
  });

  it('codec order: the initiator puts ours first; the answering side only when the offer did not (its answer keeps the offer’s order)', async () => {
    expect(link().pc.transceivers.map((t) => t.codecs)).toEqual([['audio/opus', 'audio/red'], ['video/VP8'], ['video/VP8']]);

    const ours =
      'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111 63\r\na=rtpmap:111 opus/48000/2\r\na=rtpmap:63 red/48000/2\r\nm=video 9 UDP/TLS/RTP/SAVPF 96 102\r\na=rtpmap:96 VP8/90000\r\na=rtpmap:102 H264/90000\r\n';
    const answering = link({ initiator: false, polite: true });
    await answering.peer.handleSignal({ description: { type: 'offer', sdp: ours } });
    expect(answering.pc.transceivers.map((t) => t.codecs)).toEqual([null, null, null]);

    const theirs = ours.replace('SAVPF 96 102', 'SAVPF 102 96');
    const other = link({ initiator: false, polite: true });
    await other.peer.handleSignal({ description: { type: 'offer', sdp: theirs } });
    expect(other.pc.transceivers.map((t) => t.codecs?.[0])).toEqual(['audio/opus', 'video/VP8', 'video/VP8']);
  });

  it('video offers VP8 and its retransmissions only; audio keeps every codec, Opus first', () => {
    const codec = (mimeType: string) => ({ mimeType, clockRate: 90000 });
    const video = ['video/VP9', 'video/rtx', 'video/VP8', 'video/H264', 'video/AV1', 'video/red', 'video/ulpfec'].map(codec);
    expect(codecOrder('video', video)?.map((c) => c.mimeType)).toEqual(['video/VP8', 'video/rtx']);
    // A browser without VP8 keeps what it has.
    expect(
      codecOrder(
        'video',
        video.filter((c) => c.mimeType !== 'video/VP8'),
      )?.map((c) => c.mimeType),
    ).toEqual(['video/VP9', 'video/rtx', 'video/H264', 'video/AV1', 'video/red', 'video/ulpfec']);
    expect(codecOrder('audio', ['audio/red', 'audio/G722', 'audio/opus'].map(codec))?.map((c) => c.mimeType)).toEqual([
      'audio/opus',
      'audio/red',
      'audio/G722',
    ]);
    expect(codecOrder('video', undefined)).toBeNull();
  });

  it('a remote description loses the lines of payloads its section does not list (Firefox keeps rtcp-fb for codecs left out), and nothing else', async () => {
    const firefox = [
      'v=0',
      'm=audio 9 UDP/TLS/RTP/SAVPF 109 101',
      'a=fmtp:109 maxplaybackrate=48000',
      'a=rtcp-fb:109 transport-cc',
      'a=rtpmap:109 opus/48000/2',
      'a=rtpmap:101 telephone-event/8000/1',
      'm=video 0 UDP/TLS/RTP/SAVPF 120 124',
      'a=fmtp:120 max-fs=12288;max-fr=60',
      'a=fmtp:124 apt=120',
      'a=rtcp-fb:120 nack',
      'a=rtcp-fb:121 nack',
      'a=rtcp-fb:99 ccm fir',
      'a=rtcp-fb:* transport-cc',
      'a=rtpmap:120 VP8/90000',
      'a=rtpmap:124 rtx/90000',
      'a=rtpmap:121 VP9/90000',
      'a=fingerprint:sha-256 AB:CD',
      '',
    ].join('\r\n');
    const cleaned = withoutUnlistedPayloads(firefox);
    expect(cleaned).toBe(firefox.replace('a=rtcp-fb:121 nack\r\na=rtcp-fb:99 ccm fir\r\n', '').replace('a=rtpmap:121 VP9/90000\r\n', ''));
    expect(withoutUnlistedPayloads(cleaned)).toBe(cleaned);
    // What PeerLink applies is the cleaned description.
    const { peer, pc } = link({ initiator: false, polite: true });
    await peer.handleSignal({ description: { type: 'offer', sdp: firefox } });
    expect((pc.remoteDescription as { sdp: string }).sdp).toBe(cleaned);
  });

  it('leadsWithPreferredCodecs reads each audio and video section on its own', () => {
    const sdp = (audio: string, video: string) =>
      `v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF ${audio}\r\na=rtpmap:111 opus/48000/2\r\na=rtpmap:96 red/48000/2\r\nm=video 9 UDP/TLS/RTP/SAVPF ${video}\r\na=rtpmap:96 VP8/90000\r\na=rtpmap:111 AV1/90000\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n`;
    expect(leadsWithPreferredCodecs(sdp('111 96', '96 111'))).toBe(true);
    // The same payload number means another codec in the other section.
    expect(leadsWithPreferredCodecs(sdp('96 111', '96 111'))).toBe(false);
    expect(leadsWithPreferredCodecs(sdp('111 96', '111 96'))).toBe(false);
    expect(leadsWithPreferredCodecs('v=0\r\n')).toBe(false);
  });

  describe('our candidates: the description carries the first burst, the rest trickles', () => {
    const udp = (n: number) => ({ candidate: `candidate:${n} 1 udp 2122194687 127.0.0.${n} 5000${n} typ host`, protocol: 'udp' });
    const tcpActive = (n: number) => ({
      candidate: `candidate:${n} 1 tcp 1518214911 127.0.0.${n} 9 typ host tcptype active`,
      protocol: 'tcp',
      tcpType: 'active',
    });
    const sent = (signals: SignalPayload[]) =>
      signals.map((signal) =>
        signal.description
          ? `${signal.description.type}[${[...candidatesIn(signal.description.sdp ?? '')].map((c) => c.split(' ')[0]).join(',')}]`
          : (signal.candidate?.candidate.split(' ')[0] ?? 'end'),
      );

    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    /** An initiator whose offer (set a few microtasks after it is made) starts a gathering. */
    function offering(options: Partial<PeerLinkOptions> = {}) {
      const made = link(options);
      made.pc.gathering = true;
      return made;
    }

    it('the offer waits for the burst and carries it; later ones trickle, a dial-out-only TCP one never, the end of gathering does', async () => {
      const { pc, signals } = offering();
      await jest.advanceTimersByTimeAsync(0);
      expect(signals).toEqual([]);
      pc.gather(udp(1));
      pc.gather(udp(2));
      await jest.advanceTimersByTimeAsync(CANDIDATE_QUIET_MS - 1);
      expect(signals).toEqual([]);
      pc.gather(udp(3));
      await jest.advanceTimersByTimeAsync(CANDIDATE_QUIET_MS);
      expect(sent(signals)).toEqual(['offer[candidate:1,candidate:2,candidate:3]']);
      pc.gather(tcpActive(4));
      pc.gather(udp(5));
      pc.gather(null);
      expect(sent(signals)).toEqual(['offer[candidate:1,candidate:2,candidate:3]', 'candidate:5', 'end']);
    });

    it('nothing gathered: the offer goes after CANDIDATE_WAIT_MS at most; the end of gathering sends it at once', async () => {
      const slow = offering();
      await jest.advanceTimersByTimeAsync(CANDIDATE_WAIT_MS - 1);
      expect(slow.signals).toEqual([]);
      await jest.advanceTimersByTimeAsync(1);
      expect(sent(slow.signals)).toEqual(['offer[]']);

      const ended = offering();
      await jest.advanceTimersByTimeAsync(0);
      ended.pc.gather(udp(1));
      ended.pc.gather(null);
      await jest.advanceTimersByTimeAsync(0);
      expect(sent(ended.signals)).toEqual(['offer[candidate:1]', 'end']);
    });

    it('under a relay-only policy the offer does not wait (no host candidates come)', async () => {
      const relay = offering({ rtcConfig: { iceTransportPolicy: 'relay' } });
      await jest.advanceTimersByTimeAsync(0);
      expect(sent(relay.signals)).toEqual(['offer[]']);
    });

    it('an offer crossed by theirs while it waited is not sent: the polite side answers theirs instead', async () => {
      const polite = offering({ polite: true });
      await jest.advanceTimersByTimeAsync(0);
      polite.pc.gather(udp(1));
      await polite.peer.handleSignal(offer);
      await jest.advanceTimersByTimeAsync(CANDIDATE_WAIT_MS);
      expect(sent(polite.signals)).toEqual(['answer[candidate:1]']);
    });

    it('the answer goes at once (the offerer waits for it); its candidates trickle after it', async () => {
      const answering = link({ initiator: false, polite: true });
      answering.pc.gathering = true;
      await answering.peer.handleSignal(offer);
      expect(sent(answering.signals)).toEqual(['answer[]']);
      answering.pc.gather(udp(1));
      answering.pc.gather(tcpActive(2));
      expect(sent(answering.signals)).toEqual(['answer[]', 'candidate:1']);
    });
  });

  it('a TCP candidate that only dials out is known by its type', () => {
    expect(dialsOutOnly({ candidate: '', protocol: 'tcp', tcpType: 'active' })).toBe(true);
    expect(dialsOutOnly({ candidate: '', protocol: 'tcp', tcpType: 'passive' })).toBe(false);
    expect(dialsOutOnly({ candidate: '', protocol: 'udp', tcpType: null })).toBe(false);
    // Chromium's: the SDP line has no ufrag, the candidate event's has.
    const sdp =
      'v=0\r\na=candidate:15 1 udp 2122194687 127.0.0.1 33264 typ host generation 0 network-id 3\r\na=mid:0\na=candidate:40 1 udp 2122063615 ::2 60563 typ host generation 0\n';
    expect([...candidatesIn(sdp)]).toEqual(['candidate:15 1 udp 2122194687 127.0.0.1 33264 typ host', 'candidate:40 1 udp 2122063615 ::2 60563 typ host']);
    expect(candidatesIn(sdp).has(candidateKey('candidate:15 1 udp 2122194687 127.0.0.1 33264 typ host generation 0 ufrag s6YO network-id 3'))).toBe(true);
  });

  it('candidates that come before the description wait for it, in order', async () => {
    const { peer, pc } = link({ initiator: false, polite: true });
    await peer.handleSignal(candidate(1));
    await peer.handleSignal(candidate(2));
    expect(pc.candidates).toEqual([]);
    await peer.handleSignal(offer);
    await peer.handleSignal(candidate(3));
    expect(pc.candidates.map((c) => (c as { candidate: string }).candidate)).toEqual(['candidate:1', 'candidate:2', 'candidate:3']);
  });

  it.each([
    ['impolite side ignores theirs', false, []],
    ['polite side takes theirs', true, ['offer']],
  ])('two offers at once: the %s', async (_name, polite, applied) => {
    const { peer, pc } = link({ polite });
    pc.signalingState = 'have-local-offer';
    await peer.handleSignal(offer);
    expect(pc.remoteDescriptions).toEqual(applied);
  });
});
