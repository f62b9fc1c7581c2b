/** @jest-environment node */
// PeerLink's own logic in Node: perfect negotiation, queued candidates, the sealed data channel,
// ICE restarts and the encoding budget. Node has no RTCPeerConnection, so a small recording
// stand-in takes its place; what a browser does with the SDP is the e2e tests' part.
import { CANDIDATE_QUIET_MS, CANDIDATE_WAIT_MS, candidateKey, candidatesIn, dialsOutOnly } from '@/lib/meeting/client/links/local-candidates';
import { WARM_UP_MS } from '@/lib/meeting/client/links/quality';
import { codecOrder, leadsWithPreferredCodecs, PeerLink, POLITE_RESTART_DELAY_MS, type PeerLinkOptions, type SignalPayload, type Slot, withoutUnlistedPayloads } from '@/lib/meeting/client/links/peer';

class FakeSender {
  track: unknown = null;
  encodings = [{ active: true, maxBitrate: 1000, maxFramerate: 30, scaleResolutionDownBy: 1 }];
  parameterWrites = 0;
  parameterReads = 0;
  async replaceTrack(track: unknown) {
    this.track = track;
  }
  getParameters() {
    this.parameterReads += 1;
    return { encodings: this.encodings.map((e) => ({ ...e })) };
  }
  async setParameters(parameters: { encodings: FakeSender['encodings'] }) {
    this.parameterWrites += 1;
    this.encodings = parameters.encodings;
  }
}

class FakeTransceiver {
  readonly sender = new FakeSender();
  readonly receiver = {};
  direction = 'recvonly';
  /** The codec order asked for, if any (setCodecPreferences). */
  codecs: string[] | null = null;
  constructor(readonly kind: string, readonly init?: RTCRtpTransceiverInit) {}
  setCodecPreferences(codecs: { mimeType: string }[]) {
    this.codecs = codecs.map((codec) => codec.mimeType);
  }
}

class FakeChannel {
  readyState: RTCDataChannelState = 'connecting';
  binaryType = 'blob';
  sent: Uint8Array[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  send(data: Uint8Array) {
    this.sent.push(data);
  }
}

class FakeConnection {
  static last: FakeConnection;
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  iceGatheringState: RTCIceGatheringState = 'new';
  /** Whether setLocalDescription starts a gathering that the test drives (gather()); else there is nothing to gather. */
  gathering = false;
  private gathered: string[] = [];
  private description: { type: string; sdp: string } | null = null;
  remoteDescription: { type: string; sdp?: string } | null = null;
  readonly transceivers: FakeTransceiver[] = [];
  readonly channel = new FakeChannel();
  readonly candidates: unknown[] = [];
  remoteDescriptions: string[] = [];
  iceRestarts = 0;
  ontrack: ((event: unknown) => void) | null = null;
  onicecandidate: ((event: unknown) => void) | null = null;
  onnegotiationneeded: (() => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  constructor(readonly config: RTCConfiguration) {
    FakeConnection.last = this;
  }
  createDataChannel() {
    return this.channel;
  }
  addTransceiver(trackOrKind: string | { kind: string }, init?: RTCRtpTransceiverInit) {
    const transceiver = new FakeTransceiver(typeof trackOrKind === 'string' ? trackOrKind : trackOrKind.kind, init);
    // Made with a track: the sender sends it from the start.
    if (typeof trackOrKind !== 'string') transceiver.sender.track = trackOrKind;
    this.transceivers.push(transceiver);
    return transceiver;
  }
  getTransceivers() {
    return this.transceivers;
  }
  async createOffer() {
    return { type: 'offer', sdp: 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\na=fmtp:111 minptime=10\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 VP8/90000\r\n' };
  }
  async createAnswer() {
    return { type: 'answer', sdp: 'v=0\r\na=rtpmap:111 opus/48000/2\r\na=fmtp:111 minptime=10\r\n' };
  }
  async setLocalDescription(description: { type: string; sdp: string }) {
    this.description = description;
    this.iceGatheringState = this.gathering ? 'gathering' : 'complete';
    this.signalingState = description.type === 'offer' ? 'have-local-offer' : 'stable';
  }
  /** As a browser's: the description set, with every candidate gathered since. */
  get localDescription() {
    return this.description && { ...this.description, sdp: this.description.sdp + this.gathered.map((line) => `a=${line}\r\n`).join('') };
  }
  /** The browser gathered a candidate (null: gathering is over). */
  gather(candidate: { candidate: string; protocol: string; tcpType?: string } | null) {
    if (candidate) this.gathered.push(candidate.candidate);
    else this.iceGatheringState = 'complete';
    // Chromium's event spells it with the ufrag, which the SDP line leaves out.
    const event = candidate && { sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'u', tcpType: null, ...candidate, candidate: `${candidate.candidate} generation 0 ufrag u` };
    this.onicecandidate?.({ candidate: event });
  }
  async setRemoteDescription(description: { type: string; sdp?: string }) {
    this.remoteDescription = description;
    this.remoteDescriptions.push(description.type);
    if (description.type === 'offer') {
      // An offer to a side without transceivers creates them, as a browser does.
      if (!this.transceivers.length) for (const kind of ['audio', 'video', 'video']) this.addTransceiver(kind);
      this.signalingState = 'have-remote-offer';
    } else this.signalingState = 'stable';
  }
  async addIceCandidate(candidate: unknown) {
    this.candidates.push(candidate);
  }
  restartIce() {
    this.iceRestarts += 1;
  }
  close() {
    this.signalingState = 'closed';
  }
  /** The browser says the state changed. */
  becomes(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

const globals = globalThis as unknown as { RTCPeerConnection?: unknown; RTCRtpReceiver?: unknown };
/** The browser's codecs, in its own order (ours not first). */
const capabilities = {
  audio: [{ mimeType: 'audio/red' }, { mimeType: 'audio/opus' }],
  video: [{ mimeType: 'video/H264' }, { mimeType: 'video/VP8' }],
};
beforeAll(() => {
  globals.RTCPeerConnection = FakeConnection;
  globals.RTCRtpReceiver = { getCapabilities: (kind: 'audio' | 'video') => ({ codecs: capabilities[kind] }) };
});
afterAll(() => {
  delete globals.RTCPeerConnection;
  delete globals.RTCRtpReceiver;
});

/** A cipher that marks what it seals, so the test sees sealing happened and in which order. */
const cipher = Promise.resolve({
  seal: async (text: string) => new TextEncoder().encode(`sealed:${text}`),
  open: async (data: Uint8Array) => {
    const text = new TextDecoder().decode(data);
    return text.startsWith('sealed:') ? text.slice('sealed:'.length) : null;
  },
});

function link(options: Partial<PeerLinkOptions> = {}) {
  const signals: SignalPayload[] = [];
  const messages: unknown[] = [];
  const attached: string[] = [];
  const states: RTCPeerConnectionState[] = [];
  const tracks = { audio: { id: 'mic', kind: 'audio' }, camera: { id: 'cam', kind: 'video' }, screen: null } as unknown as Record<Slot, MediaStreamTrack | null>;
  const peer = new PeerLink({
    remoteId: 'other',
    polite: false,
    initiator: true,
    rtcConfig: {},
    tracks,
    sendSignal: (payload) => signals.push(payload),
    onRemoteTrack: () => undefined,
    attachSender: (slot) => attached.push(`send:${slot}`),
    attachReceiver: (slot) => attached.push(`receive:${slot}`),
    onMessage: (message) => messages.push(message),
    cipher,
    onChannelOpen: () => undefined,
    onStateChange: (state) => states.push(state),
    ...options,
  });
  return { peer, pc: FakeConnection.last, signals, messages, attached, states };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const offer = { description: { type: 'offer' as const, sdp: 'v=0\r\n' } };
const candidate = (n: number) => ({ candidate: { candidate: `candidate:${n}`, sdpMid: '0', sdpMLineIndex: 0 } });

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

    const ours = 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111 63\r\na=rtpmap:111 opus/48000/2\r\na=rtpmap:63 red/48000/2\r\nm=video 9 UDP/TLS/RTP/SAVPF 96 102\r\na=rtpmap:96 VP8/90000\r\na=rtpmap:102 H264/90000\r\n';
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
    expect(codecOrder('video', video.filter((c) => c.mimeType !== 'video/VP8'))?.map((c) => c.mimeType)).toEqual(['video/VP9', 'video/rtx', 'video/H264', 'video/AV1', 'video/red', 'video/ulpfec']);
    expect(codecOrder('audio', ['audio/red', 'audio/G722', 'audio/opus'].map(codec))?.map((c) => c.mimeType)).toEqual(['audio/opus', 'audio/red', 'audio/G722']);
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
    const tcpActive = (n: number) => ({ candidate: `candidate:${n} 1 tcp 1518214911 127.0.0.${n} 9 typ host tcptype active`, protocol: 'tcp', tcpType: 'active' });
    const sent = (signals: SignalPayload[]) =>
      signals.map((signal) => (signal.description ? `${signal.description.type}[${[...candidatesIn(signal.description.sdp ?? '')].map((c) => c.split(' ')[0]).join(',')}]` : (signal.candidate?.candidate.split(' ')[0] ?? 'end')));

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
    const sdp = 'v=0\r\na=candidate:15 1 udp 2122194687 127.0.0.1 33264 typ host generation 0 network-id 3\r\na=mid:0\na=candidate:40 1 udp 2122063615 ::2 60563 typ host generation 0\n';
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

  it('the data channel sends only sealed messages, in order, and only when open', async () => {
    const { peer, pc } = link();
    expect(peer.send({ t: 'hand' })).toBe(false);
    pc.channel.readyState = 'open';
    expect(peer.send({ n: 1 })).toBe(true);
    expect(peer.send({ n: 2 })).toBe(true);
    await settle();
    expect(pc.channel.sent.map((data) => new TextDecoder().decode(data))).toEqual(['sealed:{"n":1}', 'sealed:{"n":2}']);
  });

  it('received: sealed messages are opened in order; plain text, unsealed or oversized data is refused', async () => {
    const { pc, messages } = link();
    const bytes = (text: string) => new TextEncoder().encode(text).buffer;
    for (const data of [bytes('sealed:{"n":1}'), 'sealed:{"n":2}', bytes('{"n":3}'), new ArrayBuffer(97 * 1024), bytes('sealed:not json'), bytes('sealed:{"n":4}')])
      pc.channel.onmessage?.({ data });
    await settle();
    await settle();
    expect(messages).toEqual([{ n: 1 }, { n: 4 }]);
  });

  it('a failed connection restarts ICE at once; a disconnected one only if it stays so', () => {
    jest.useFakeTimers();
    try {
      const { pc, states } = link();
      pc.becomes('failed');
      expect(pc.iceRestarts).toBe(1);
      pc.becomes('disconnected');
      jest.advanceTimersByTime(3000);
      pc.becomes('connected');
      jest.advanceTimersByTime(5000);
      expect(pc.iceRestarts).toBe(1);
      pc.becomes('disconnected');
      jest.advanceTimersByTime(5000);
      expect(pc.iceRestarts).toBe(2);
      expect(states).toEqual(['failed', 'disconnected', 'connected', 'disconnected']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('the polite side leaves ICE restarts to the impolite one, so their offers never cross', async () => {
    jest.useFakeTimers();
    try {
      // Both sides see the same outage at once; only the impolite one restarts then.
      const impolite = link({ polite: false });
      const polite = link({ polite: true, initiator: false });
      await polite.peer.handleSignal(offer);
      impolite.pc.becomes('failed');
      polite.pc.becomes('failed');
      expect([impolite.pc.iceRestarts, polite.pc.iceRestarts]).toEqual([1, 0]);
      // The impolite side's restart offer arrives: the polite side answers and makes none of its own.
      await polite.peer.handleSignal(offer);
      jest.advanceTimersByTime(POLITE_RESTART_DELAY_MS * 2);
      expect(polite.pc.iceRestarts).toBe(0);
      // Back before its turn: nothing to restart.
      polite.pc.becomes('disconnected');
      jest.advanceTimersByTime(4000 + POLITE_RESTART_DELAY_MS - 1);
      polite.pc.becomes('connected');
      jest.advanceTimersByTime(POLITE_RESTART_DELAY_MS);
      expect(polite.pc.iceRestarts).toBe(0);
      // Down on its side only (no offer comes): it restarts alone, once, after its wait.
      polite.pc.becomes('failed');
      polite.peer.restartIce();
      jest.advanceTimersByTime(POLITE_RESTART_DELAY_MS - 1);
      expect(polite.pc.iceRestarts).toBe(0);
      jest.advanceTimersByTime(1);
      expect(polite.pc.iceRestarts).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('warms up once: WARM_UP_MS after it first connects, never again after a reconnection, never after close', () => {
    jest.useFakeTimers();
    try {
      let warmedUp = 0;
      const { peer, pc } = link({ onWarmedUp: () => (warmedUp += 1) });
      pc.becomes('connecting');
      jest.advanceTimersByTime(WARM_UP_MS * 2);
      expect(peer.warmedUp).toBe(false);
      pc.becomes('connected');
      jest.advanceTimersByTime(WARM_UP_MS - 1);
      expect([peer.warmedUp, warmedUp]).toEqual([false, 0]);
      // A drop and a recovery in the meantime do not start the wait over.
      pc.becomes('disconnected');
      pc.becomes('connected');
      jest.advanceTimersByTime(1);
      expect([peer.warmedUp, warmedUp]).toEqual([true, 1]);
      pc.becomes('disconnected');
      pc.becomes('connected');
      jest.advanceTimersByTime(WARM_UP_MS);
      expect(warmedUp).toBe(1);

      const closing = link({ onWarmedUp: () => (warmedUp += 1) });
      closing.pc.becomes('connected');
      closing.peer.close();
      jest.advanceTimersByTime(WARM_UP_MS);
      expect([closing.peer.warmedUp, warmedUp]).toEqual([false, 1]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('after close nothing more happens: no restart (not even a waiting one), no signal applied', async () => {
    jest.useFakeTimers();
    try {
      const { peer, pc } = link({ initiator: false, polite: true });
      peer.restartIce();
      peer.close();
      expect(pc.onconnectionstatechange).toBeNull();
      peer.restartIce();
      jest.advanceTimersByTime(POLITE_RESTART_DELAY_MS);
      await peer.handleSignal(offer);
      expect(pc.iceRestarts).toBe(0);
      expect(pc.remoteDescriptions).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('an unchanged encoding is not written again; a new one is', async () => {
    const { peer, pc } = link();
    const camera = pc.transceivers[1]!.sender;
    await peer.setEncoding('camera', { active: true, maxBitrate: 1000, maxFramerate: 30, scaleResolutionDownBy: 1 });
    expect(camera.parameterWrites).toBe(0);
    await peer.setEncoding('camera', { active: true, maxBitrate: 300, maxFramerate: 15, scaleResolutionDownBy: 2 });
    expect(camera.parameterWrites).toBe(1);
    expect(camera.encodings[0]).toMatchObject({ maxBitrate: 300, maxFramerate: 15, scaleResolutionDownBy: 2 });
  });

  it('an encoding already applied does not ask the browser again (getParameters waits for the signaling thread)', async () => {
    const { peer, pc } = link();
    const camera = pc.transceivers[1]!.sender;
    const lower = { active: true, maxBitrate: 300, maxFramerate: 15, scaleResolutionDownBy: 2 };
    await peer.setEncoding('camera', lower);
    await peer.setEncoding('camera', { ...lower });
    expect([camera.parameterReads, camera.parameterWrites]).toEqual([1, 1]);
  });

  it('the initiator\u2019s senders start with the policy\u2019s encodings, which are then not written again', async () => {
    const camera = { active: true, maxBitrate: 1_500_000, maxFramerate: 30, scaleResolutionDownBy: 1 };
    const { peer, pc } = link({ initialEncodings: { camera } });
    expect(pc.transceivers.map((t) => t.init?.sendEncodings)).toEqual([undefined, [camera], undefined]);
    await peer.setEncoding('camera', { ...camera });
    expect(pc.transceivers[1]!.sender.parameterReads).toBe(0);
  });

  it('swapping a track is a replaceTrack, never a new negotiation', async () => {
    const { peer, pc, signals } = link();
    await settle();
    expect(signals.map((s) => s.description?.type)).toEqual(['offer']);
    const screen = { id: 'screen' } as unknown as MediaStreamTrack;
    await peer.setTrack('screen', screen);
    expect(pc.transceivers[2]!.sender.track).toBe(screen);
    expect(signals).toHaveLength(1);
    expect(peer.negotiations).toBe(1);
  });
});
