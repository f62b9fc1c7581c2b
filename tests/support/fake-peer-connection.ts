// A recording stand-in for the browser's RTCPeerConnection, for PeerLink's tests in Node
// (meeting-peer-link*.test.ts): Node has none, and what a browser does with the SDP is the e2e
// tests' part.
import { PeerLink, type PeerLinkOptions, type SignalPayload, type Slot } from '@/lib/meeting/client/links/peer';

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
  constructor(
    readonly kind: string,
    readonly init?: RTCRtpTransceiverInit,
  ) {}
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

export class FakeConnection {
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
    return {
      type: 'offer',
      sdp: 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\na=fmtp:111 minptime=10\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 VP8/90000\r\n',
    };
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
    const event = candidate && {
      sdpMid: '0',
      sdpMLineIndex: 0,
      usernameFragment: 'u',
      tcpType: null,
      ...candidate,
      candidate: `${candidate.candidate} generation 0 ufrag u`,
    };
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
/** Puts the stand-ins where PeerLink looks for the browser's, for the test file that calls it. */
export function installFakeWebRtc() {
  beforeAll(() => {
    globals.RTCPeerConnection = FakeConnection;
    globals.RTCRtpReceiver = { getCapabilities: (kind: 'audio' | 'video') => ({ codecs: capabilities[kind] }) };
  });
  afterAll(() => {
    delete globals.RTCPeerConnection;
    delete globals.RTCRtpReceiver;
  });
}

/** A cipher that marks what it seals, so the test sees sealing happened and in which order. */
const cipher = Promise.resolve({
  seal: async (text: string) => new TextEncoder().encode(`sealed:${text}`),
  open: async (data: Uint8Array) => {
    const text = new TextDecoder().decode(data);
    return text.startsWith('sealed:') ? text.slice('sealed:'.length) : null;
  },
});

export function link(options: Partial<PeerLinkOptions> = {}) {
  const signals: SignalPayload[] = [];
  const messages: unknown[] = [];
  const attached: string[] = [];
  const states: RTCPeerConnectionState[] = [];
  const tracks = { audio: { id: 'mic', kind: 'audio' }, camera: { id: 'cam', kind: 'video' }, screen: null } as unknown as Record<
    Slot,
    MediaStreamTrack | null
  >;
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

export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
export const offer = { description: { type: 'offer' as const, sdp: 'v=0\r\n' } };
export const candidate = (n: number) => ({ candidate: { candidate: `candidate:${n}`, sdpMid: '0', sdpMLineIndex: 0 } });
