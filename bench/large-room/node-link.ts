// One connection of a Node participant to one other participant, over libdatachannel
// (node-datachannel): the same shape as the browser's PeerLink (lib/meeting/client/links/peer.ts) so
// that a browser cannot tell the difference — three m-sections in the order audio, camera,
// screen, a negotiated data channel with id 0, trickle ICE, the smaller id offers — but video is
// only received. Sends Opus frames sealed in the app's frame format; opens those it receives.
import nodeDataChannel from 'node-datachannel';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { SignalPayload } from '@/lib/meeting/client/links/peer';
import type { NodeFrames } from './node-frames';
import { newRtpSender, rtpPacket, rtpPayload, type RtpSender } from './rtp';

const { PeerConnection, Audio, Video, RtcpReceivingSession } = nodeDataChannel;
type PeerConnection = InstanceType<typeof PeerConnection>;
type Track = ReturnType<PeerConnection['addTrack']>;

export interface NodeLinkOptions {
  selfId: string;
  remoteId: string;
  initiator: boolean;
  /** The DTLS certificate whose fingerprint this participant announced. */
  certificate: { certFile: string; keyFile: string };
  frames: NodeFrames;
  sendSignal: (payload: SignalPayload) => void;
  /** The first audio frame from this peer opened: its media reaches us, encrypted as it should. */
  onFirstAudio: () => void;
  /** ICE or DTLS gave up (or the other side closed): the peer makes a new connection. */
  onFailed?: () => void;
}

/** What a Node participant tells a browser sender it may use (REMB): above the policy's caps. */
const RECEIVE_BITRATE = 2_000_000;

/**
 * Our descriptions offer no transport-wide congestion feedback (libdatachannel does not send
 * it): Chromium then estimates from receiver reports and REMB, which RtcpReceivingSession sends.
 */
function withoutTransportCc(sdp: string): string {
  return sdp
    .split(/\r?\n/)
    .filter((line) => !/^a=rtcp-fb:\S+ transport-cc/.test(line) && !/^a=extmap:\d+\S* .*transport-wide-cc/.test(line))
    .join('\r\n');
}

export class NodeLink {
  readonly pc: PeerConnection;
  state = 'new';
  readonly initiator: boolean;
  /** Every state it went through, for the benchmark's report on links that did not connect. */
  readonly history: string[] = [];
  /** Frames opened from this peer, video bytes received. */
  audioOpened = 0;
  videoBytes = 0;
  sentPackets = 0;
  sentBytes = 0;
  private audio: Track | null = null;
  private readonly rtp: RtpSender;
  private remoteSet = false;
  private readonly pendingCandidates: { candidate: string; mid: string }[] = [];
  private closed = false;
  /** Being closed by agreement (node-links.ts, the app's LinkPruning): not made again when it fails. */
  retired = false;

  constructor(private readonly options: NodeLinkOptions) {
    this.rtp = newRtpSender(111);
    this.initiator = options.initiator;
    this.pc = new PeerConnection(`${options.selfId}>${options.remoteId}`, {
      iceServers: [],
      // Loopback only: every participant of the benchmark is on this machine.
      bindAddress: '127.0.0.1',
      certificatePemFile: options.certificate.certFile,
      keyPemFile: options.certificate.keyFile,
    });
    this.pc.onStateChange((state) => {
      this.state = state;
      this.history.push(state);
      if (state === 'failed' || state === 'closed') options.onFailed?.();
    });
    this.pc.onLocalDescription((sdp, type) => {
      if (this.closed) return;
      const described = withoutTransportCc(type === 'answer' ? this.withOurSsrc(sdp) : sdp);
      options.sendSignal({ description: { type: type as 'offer' | 'answer', sdp: described } });
    });
    this.pc.onLocalCandidate((candidate, mid) => {
      if (this.closed) return;
      options.sendSignal({ candidate: { candidate: candidate.replace(/^a=/, ''), sdpMid: mid, sdpMLineIndex: 0 } });
    });
    this.pc.onTrack((track) => this.adopt(track));
    if (options.initiator) {
      const audio = new Audio('0', 'SendRecv');
      audio.addOpusCodec(111);
      audio.addSSRC(this.rtp.ssrc, `node-${options.selfId}`);
      this.adopt(this.pc.addTrack(audio));
      for (const mid of ['1', '2']) {
        const video = new Video(mid, 'RecvOnly');
        video.addVP8Codec(96);
        this.adopt(this.pc.addTrack(video));
      }
      // Negotiated on both sides with id 0, as the browser's; creating it makes the offer.
      this.pc.createDataChannel('enclave', { negotiated: true, id: 0 });
    }
  }

  /** A description or candidate from the other side, in arrival order (the key exchange keeps it). */
  handleSignal({ description, candidate }: SignalPayload) {
    if (this.closed) return;
    try {
      if (description?.sdp && (description.type === 'offer' || description.type === 'answer')) {
        // A renegotiation (an ICE restart) while ours is pending: the bench's peers never offer twice.
        if (description.type === 'offer' && this.pc.signalingState() !== 'stable') return;
        const payloadType = /a=rtpmap:(\d+) opus\/48000/i.exec(description.sdp)?.[1];
        if (payloadType) this.rtp.payloadType = Number(payloadType);
        this.pc.setRemoteDescription(description.sdp, description.type);
        if (description.type === 'offer' && !this.remoteSet) this.pc.createDataChannel('enclave', { negotiated: true, id: 0 });
        this.remoteSet = true;
        for (const queued of this.pendingCandidates.splice(0)) this.pc.addRemoteCandidate(queued.candidate, queued.mid);
        return;
      }
      if (!candidate?.candidate) return;
      const entry = { candidate: candidate.candidate, mid: candidate.sdpMid ?? '0' };
      if (this.remoteSet) this.pc.addRemoteCandidate(entry.candidate, entry.mid);
      else this.pendingCandidates.push(entry);
    } catch (error) {
      // Chromium trickles candidates for every m-section before BUNDLE is agreed; libdatachannel
      // has a transport for the first only and refuses the others, which is harmless.
      if (!/without ICE transport/.test((error as Error).message)) console.warn(`node link ${this.options.remoteId}:`, (error as Error).message);
    }
  }

  /** Sends one Opus frame, sealed for this peer; false when it could not (not open, no key). */
  async sendAudio(frame: Bytes, samples: number): Promise<boolean> {
    if (this.closed || !this.audio?.isOpen()) return false;
    const sealed = await this.options.frames.sealAudio(this.options.remoteId, frame);
    if (!sealed || this.closed) return false;
    const packet = rtpPacket(this.rtp, sealed, samples);
    try {
      if (!this.audio.sendMessageBinary(packet)) return false;
    } catch {
      return false; // closed while the frame was being sealed
    }
    this.sentPackets += 1;
    this.sentBytes += packet.length;
    return true;
  }

  /** A file's channel is on it (call/link-pruning.ts PrunedLink): never here, these links carry no files. */
  busy(): boolean {
    return false;
  }

  /** About to be closed by agreement (call/link-pruning.ts PrunedLink). */
  retire(): void {
    this.retired = true;
  }

  /** Gave up or was closed: the peer may replace it. */
  get isFailed() {
    return this.closed || this.state === 'failed' || this.state === 'closed';
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    try {
      this.pc.close();
    } catch {
      // already closed
    }
  }

  private adopt(track: Track) {
    const audio = track.type() === 'audio';
    if (audio) this.audio = track;
    // Receiver reports and REMB, as a browser's receiver sends: without any feedback Chromium's
    // congestion control starves its senders to us (and pauses video), which no real peer causes.
    track.setMediaHandler(new RtcpReceivingSession());
    track.onOpen(() => track.requestBitrate(RECEIVE_BITRATE));
    track.onMessage((message) => {
      const payload = rtpPayload(message);
      if (!payload) return;
      if (!audio) {
        this.videoBytes += message.length;
        return;
      }
      void this.options.frames.openAudio(this.options.remoteId, new Uint8Array(payload)).then((opened) => {
        if (!opened) return;
        this.audioOpened += 1;
        if (this.audioOpened === 1) this.options.onFirstAudio();
      });
    });
  }

  /**
   * libdatachannel answers an offer's audio section without our SSRC; the browser must know it
   * to route our packets to the audio receiver (we send no MID header extension), so the answer
   * names it — in the first audio section only.
   */
  private withOurSsrc(sdp: string): string {
    const sections = sdp.split(/(?=\r?\nm=)/);
    const index = sections.findIndex((section) => /\nm=audio /.test(section));
    if (index < 0) return sdp;
    const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
    const line = `${eol}a=ssrc:${this.rtp.ssrc} cname:node-${this.options.selfId}`;
    sections[index] = sections[index]!.replace(/\s*$/, '') + line + (index === sections.length - 1 ? eol : '');
    return sections.join('');
  }
}
