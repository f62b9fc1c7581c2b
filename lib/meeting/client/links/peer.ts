// One RTCPeerConnection to one other participant (docs/e2ee-crypto.md "Peer connections"): the "perfect
// negotiation" pattern (the polite peer has the larger id), an offer that carries its first ICE
// candidates while the rest trickle (local-candidates.ts), three transceivers created up front —
// audio, camera, screen — so screen sharing is replaceTrack() without renegotiation, and a
// negotiated data channel for chat and state (link-channels.ts). Every sender and receiver
// gets its frame-encryption transform in the task that creates it (docs/e2ee-crypto.md "Browser APIs").
import { leadsWithPreferredCodecs, preferredCodecs, withoutUnlistedPayloads } from './codecs';
import { LinkChannels, type LinkChannelOptions } from './link-channels';
import { LocalCandidates } from './local-candidates';
import { WARM_UP_MS, withOpusDtx, withVideoStartBitrate, type VideoEncoding } from '../media/encoding-policy';

import { SLOTS, type SignalPayload, type Slot } from './slots';

export type { SignalPayload, Slot };

export interface PeerLinkOptions extends LinkChannelOptions {
  remoteId: string;
  /** Larger id = polite: on an offer collision it yields. */
  polite: boolean;
  /** The side that creates the transceivers and makes the first offer (who handed the key over, else the smaller id). */
  initiator: boolean;
  rtcConfig: RTCConfiguration;
  tracks: Record<Slot, MediaStreamTrack | null>;
  sendSignal: (payload: SignalPayload) => void;
  onRemoteTrack: (slot: Slot, track: MediaStreamTrack) => void;
  /** Frame encryption: called synchronously once per sender and per receiver. */
  attachSender: (slot: Slot, sender: RTCRtpSender) => void;
  attachReceiver: (slot: Slot, receiver: RTCRtpReceiver) => void;
  onStateChange: (state: RTCPeerConnectionState) => void;
  /** The connection has been up for WARM_UP_MS (media/encoding-policy.ts): time for the policy's full encodings. */
  onWarmedUp?: () => void;
  /** Where the video bandwidth estimate starts, in kbps (media/encoding-policy.ts startBitrateKbps). */
  startBitrateKbps?: () => number;
  /** The initiator's video encodings from the start (media/encoding-policy.ts), so its first frames follow the policy. */
  initialEncodings?: Partial<Record<Slot, VideoEncoding>>;
}

const DISCONNECTED_RESTART_MS = 4000;
/**
 * The polite side leaves ICE restarts to the impolite one for this long. Both sides see an
 * outage at once; if both restarted, their offers would cross and the polite side would roll
 * its own back, and Chromium (156) then rebuilds that side's video streams without the receiver's
 * encoded transform: its decoder gets ciphertext and the other side's video never comes back
 * (docs/reliability.md, "ICE restart after a dropped network"). Alone, it still restarts after this.
 */
export const POLITE_RESTART_DELAY_MS = 6000;

export class PeerLink {
  readonly pc: RTCPeerConnection;
  readonly channel: RTCDataChannel;
  private makingOffer = false;
  private ignoreOffer = false;
  private answerPending = false;
  private transceivers: RTCRtpTransceiver[] = [];
  private queue: Promise<void> = Promise.resolve();
  private pendingCandidates: NonNullable<SignalPayload['candidate']>[] = [];
  private readonly candidates: LocalCandidates;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private politeRestartTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** Being closed by agreement (call/link-pruning.ts): the peer's side going first is no outage to restart. */
  private retiring = false;
  private warmUpTimer: ReturnType<typeof setTimeout> | undefined;
  /** Up for WARM_UP_MS since it first connected (media/encoding-policy.ts): sends the camera at the policy's full size. */
  warmedUp = false;
  /** The sealed channel for the call's messages and the files' own (link-channels.ts). */
  private readonly channels: LinkChannels;
  /** Offers made or answered so far: screen share and camera toggles must not add any. */
  negotiations = 0;
  /**
   * What each sender was last set to. getParameters() waits for WebRTC's signaling thread, which
   * is busiest while a connection is negotiated: unchanged encodings skip it (issue 17, profiled).
   */
  private readonly appliedEncodings = new Map<Slot, string>();

  constructor(private readonly options: PeerLinkOptions) {
    // One transport for audio, camera, screen and the data channel, so candidates are gathered,
    // signed and checked once, not once per media section (issue 17: ~40 candidates a side).
    this.pc = new RTCPeerConnection({ bundlePolicy: 'max-bundle', ...options.rtcConfig });
    this.channels = new LinkChannels(this.pc, options);
    this.channel = this.channels.main;

    this.pc.ontrack = (event) => {
      const slot = this.slotOf(event.transceiver);
      if (!slot) return;
      // Here, not later: a receiver transform set in a later task is silently bypassed.
      options.attachReceiver(slot, event.receiver);
      options.onRemoteTrack(slot, event.track);
    };
    this.candidates = new LocalCandidates(
      this.pc,
      (candidate) =>
        options.sendSignal({
          candidate: candidate
            ? { candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex, usernameFragment: candidate.usernameFragment }
            : null,
        }),
      options.rtcConfig.iceTransportPolicy !== 'relay',
    );
    this.pc.onicecandidate = ({ candidate }) => this.candidates.add(candidate);
    this.pc.onnegotiationneeded = () => void this.makeOffer();
    this.pc.onconnectionstatechange = () => {
      const state = this.pc.connectionState;
      options.onStateChange(state);
      clearTimeout(this.restartTimer);
      if (state === 'connected') {
        this.cancelPoliteRestart();
        this.startWarmUp();
      }
      if (state === 'failed') this.restartIce();
      // A brief "disconnected" often heals itself (a lost packet burst); a long one needs new paths.
      if (state === 'disconnected') this.restartTimer = setTimeout(() => this.restartIce(), DISCONNECTED_RESTART_MS);
    };

    if (options.initiator) {
      // Each sender made with its track: a replaceTrack() after would be one more wait for
      // WebRTC's signaling thread before the offer (issue 17, traced).
      this.transceivers = SLOTS.map((slot) => {
        const encoding = options.initialEncodings?.[slot];
        if (encoding) this.appliedEncodings.set(slot, JSON.stringify(encoding));
        return this.pc.addTransceiver(options.tracks[slot] ?? (slot === 'audio' ? 'audio' : 'video'), {
          direction: 'sendrecv',
          ...(encoding ? { sendEncodings: [{ ...encoding }] } : {}),
        });
      });
      for (const [index, slot] of SLOTS.entries()) {
        options.attachSender(slot, this.transceivers[index]!.sender);
        options.attachReceiver(slot, this.transceivers[index]!.receiver);
      }
      this.preferCodecs();
      // At once: "negotiationneeded" comes a task later, after the browser asked its signaling
      // thread whether it still applies — 6–16 ms of the join on a busy page (issue 17, traced).
      void this.makeOffer();
    }
  }

  /** The sender of a slot (null until the first offer has arrived on the answering side). */
  sender(slot: Slot): RTCRtpSender | null {
    return this.transceivers[SLOTS.indexOf(slot)]?.sender ?? null;
  }

  receiver(slot: Slot): RTCRtpReceiver | null {
    return this.transceivers[SLOTS.indexOf(slot)]?.receiver ?? null;
  }

  /** Swaps what a slot sends (camera on/off, screen share) — never a renegotiation. */
  async setTrack(slot: Slot, track: MediaStreamTrack | null): Promise<void> {
    this.options.tracks[slot] = track;
    await this.sender(slot)?.replaceTrack(track);
  }

  async setEncoding(slot: Slot, encoding: VideoEncoding): Promise<void> {
    const sender = this.sender(slot);
    const wanted = JSON.stringify(encoding);
    if (!sender || this.appliedEncodings.get(slot) === wanted) return;
    const parameters = sender.getParameters();
    if (!parameters.encodings?.length) return;
    const current = parameters.encodings[0]!;
    this.appliedEncodings.set(slot, wanted);
    if (
      current.active === encoding.active &&
      current.maxBitrate === encoding.maxBitrate &&
      current.maxFramerate === encoding.maxFramerate &&
      current.scaleResolutionDownBy === encoding.scaleResolutionDownBy
    )
      return;
    Object.assign(current, encoding);
    try {
      await sender.setParameters(parameters);
    } catch (error) {
      this.appliedEncodings.delete(slot);
      console.warn('setParameters', error);
    }
  }

  /** Seals and sends, keeping the order of calls. */
  send(message: unknown): boolean {
    return this.channels.send(message);
  }

  /** A data channel of its own (a file transfer): SCTP is up, so no renegotiation. */
  openChannel(label: string): RTCDataChannel | null {
    return this.closed ? null : this.channels.openChannel(label);
  }

  /** A file's channel is open on this link. */
  busy(): boolean {
    return this.channels.busy();
  }

  /** About to be closed by agreement (call/link-pruning.ts): no more ICE restarts. */
  retire(): void {
    this.retiring = true;
    clearTimeout(this.restartTimer);
    this.cancelPoliteRestart();
  }

  /** Applies what the other side sent, in arrival order. */
  handleSignal(payload: SignalPayload): Promise<void> {
    this.queue = this.queue.then(() => this.applySignal(payload)).catch((error) => console.warn('signal', error));
    return this.queue;
  }

  /** New ICE credentials and paths over the same connection; the polite side waits its turn. */
  restartIce(): void {
    if (this.closed || this.retiring || this.pc.signalingState === 'closed') return;
    if (!this.options.polite) return this.pc.restartIce();
    if (this.politeRestartTimer !== undefined) return;
    this.politeRestartTimer = setTimeout(() => {
      this.politeRestartTimer = undefined;
      if (this.closed || this.pc.signalingState === 'closed' || this.pc.connectionState === 'connected') return;
      this.pc.restartIce();
    }, POLITE_RESTART_DELAY_MS);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.restartTimer);
    clearTimeout(this.warmUpTimer);
    this.cancelPoliteRestart();
    this.pc.ontrack = this.pc.onicecandidate = this.pc.onnegotiationneeded = this.pc.onconnectionstatechange = null;
    this.channels.close();
    this.pc.close();
  }

  private async makeOffer() {
    // The answering side waits for the initiator's first offer; afterwards either may offer.
    // One offer at a time: the event may still fire while the first one is being made.
    if (this.closed || !this.transceivers.length || this.makingOffer) return;
    try {
      this.makingOffer = true;
      const offer = await this.pc.createOffer();
      if (this.pc.signalingState !== 'stable') return;
      this.candidates.hold();
      await this.pc.setLocalDescription({ type: 'offer', sdp: this.munge(offer.sdp) });
      this.negotiations += 1;
    } catch (error) {
      this.candidates.release();
      console.warn('offer', error);
      return;
    } finally {
      this.makingOffer = false;
    }
    await this.candidates.settle();
    // Their offer may have crossed ours meanwhile, and the polite side then took theirs.
    if (this.closed || !this.offering()) return this.candidates.release();
    this.sendDescription();
  }

  /** Our offer is still the one waiting for an answer (a function: TypeScript would narrow a read across the awaits). */
  private offering() {
    return this.pc.signalingState === 'have-local-offer';
  }

  private async applySignal({ description, candidate }: SignalPayload) {
    if (this.closed) return;
    if (description) {
      const readyForOffer = !this.makingOffer && (this.pc.signalingState === 'stable' || this.answerPending);
      const collision = description.type === 'offer' && !readyForOffer;
      this.ignoreOffer = !this.options.polite && collision;
      if (this.ignoreOffer) return;
      this.answerPending = description.type === 'answer';
      await this.pc.setRemoteDescription({
        type: description.type,
        sdp: description.sdp === undefined ? undefined : withoutUnlistedPayloads(description.sdp),
      } as RTCSessionDescriptionInit);
      this.answerPending = false;
      if (description.type === 'offer') {
        // The impolite side restarted ICE: ours, still waiting, would only cross it.
        this.cancelPoliteRestart();
        this.negotiations += 1;
        if (!this.transceivers.length) this.adoptTransceivers(description.sdp ?? '');
        const answer = await this.pc.createAnswer();
        await this.pc.setLocalDescription({ type: 'answer', sdp: this.munge(answer.sdp) });
        // At once, unlike an offer: the offerer waits for it to start DTLS, and needs none of
        // our candidates for that (our checks reach its candidates, which came in its offer).
        this.sendDescription();
      }
      for (const queued of this.pendingCandidates.splice(0)) await this.addCandidate(queued);
      return;
    }
    if (candidate === undefined) return;
    if (!this.pc.remoteDescription) {
      if (candidate) this.pendingCandidates.push(candidate);
      return;
    }
    await this.addCandidate(candidate);
  }

  private async addCandidate(candidate: SignalPayload['candidate']) {
    try {
      await this.pc.addIceCandidate(candidate ?? undefined);
    } catch (error) {
      if (!this.ignoreOffer) console.warn('candidate', error);
    }
  }

  /** Once, from the first "connected": a later reconnection does not start soft again. */
  private startWarmUp() {
    if (this.warmedUp || this.warmUpTimer !== undefined) return;
    this.warmUpTimer = setTimeout(() => {
      this.warmedUp = true;
      this.options.onWarmedUp?.();
    }, WARM_UP_MS);
  }

  private cancelPoliteRestart() {
    clearTimeout(this.politeRestartTimer);
    this.politeRestartTimer = undefined;
  }

  /**
   * The answering side: the offer created the three transceivers; start sending on them. The
   * answer is made at once: it does not depend on the tracks, and the browser applies the swaps
   * before it (one queue of operations per connection). The answer keeps the offer's codec order,
   * so ours are set only when the offer did not lead with them (issue 17: each call waits for
   * WebRTC's signaling thread, busiest right now).
   */
  private adoptTransceivers(offer: string) {
    this.transceivers = this.pc.getTransceivers().slice(0, SLOTS.length);
    if (!leadsWithPreferredCodecs(offer)) this.preferCodecs();
    for (const [index, slot] of SLOTS.entries()) {
      const transceiver = this.transceivers[index];
      if (!transceiver) continue;
      this.options.attachSender(slot, transceiver.sender);
      transceiver.direction = 'sendrecv';
      const track = this.options.tracks[slot];
      if (track) transceiver.sender.replaceTrack(track).catch((error) => console.warn('replaceTrack', error));
    }
  }

  /** VP8 and Opus first: their payload layout is what frame encryption keeps in clear (docs/e2ee-crypto.md). */
  private preferCodecs() {
    for (const [index, slot] of SLOTS.entries()) {
      const transceiver = this.transceivers[index];
      const sorted = preferredCodecs(slot === 'audio' ? 'audio' : 'video');
      if (!transceiver || !sorted || !transceiver.setCodecPreferences) continue;
      try {
        transceiver.setCodecPreferences(sorted);
      } catch {
        // a browser that refuses keeps its own order
      }
    }
  }

  private slotOf(transceiver: RTCRtpTransceiver): Slot | null {
    const index = this.pc.getTransceivers().indexOf(transceiver);
    return index >= 0 && index < SLOTS.length ? SLOTS[index]! : null;
  }

  /** What our descriptions ask for beyond the browser's defaults: Opus DTX, and the video start bitrate. */
  private munge(sdp: string | undefined): string {
    const withDtx = withOpusDtx(sdp ?? '');
    const kbps = this.options.startBitrateKbps?.();
    return kbps ? withVideoStartBitrate(withDtx, kbps) : withDtx;
  }

  /** Our current description, with the candidates gathered so far; those are not sent again. */
  private sendDescription() {
    const local = this.pc.localDescription!;
    this.options.sendSignal({ description: { type: local.type, sdp: local.sdp } });
    this.candidates.described(local.sdp);
  }
}
