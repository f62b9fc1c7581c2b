// The session's connections: one PeerLink per other participant (full mesh), made when the
// machine says so, carrying this page's tracks, keyed by the key exchange, each with the video
// budget the policy gives it (media/encoding-policy.ts).
import type { LinkSignalBody } from '../keys/envelope';
import type { MeetingCrypto } from '../keys/meeting-crypto';
import { PeerLink } from '../links/peer';
import { startBitrateKbps, videoEncodings } from '../media/encoding-policy';
import { SLOTS, type SignalPayload, type Slot } from '../links/slots';
import type { MeetingEvent } from './machine';

/** What the links need from the session. */
export interface MeshContext {
  selfId: string;
  /** How many are in the call, ourselves included: the budget is shared among them. */
  participants(): number;
  /** False while this peer hides our camera: then it costs it nothing. */
  visible(peerId: string): boolean;
  /** This page's keys (made before any link): frame transforms, DTLS certificate, data-channel cipher. */
  keys(): MeetingCrypto;
  rtcConfig(): RTCConfiguration;
  /** Descriptions and candidates go up signed, through the key exchange. */
  sendSignal(peerId: string, payload: SignalPayload): void;
  /** Resolves once this peer proved it holds the key. */
  verified(peerId: string): Promise<void>;
  /** What a link reports, for the machine. */
  dispatch(event: MeetingEvent): Promise<void>;
  onMessage(peerId: string, raw: unknown): void;
  onDataChannel(peerId: string, channel: RTCDataChannel): void;
}

const NO_MEDIA: Record<Slot, null> = { audio: null, camera: null, screen: null };
/** How long a file waits for a link made for it (ICE and DTLS: well under a second on a working network). */
const LINK_OPEN_MS = 15_000;

export class Mesh {
  readonly links = new Map<string, PeerLink>();
  /**
   * Peers that get our media through the SFU (call/sfu-route.ts): the links to them carry data
   * only. A peer still on the mesh keeps getting it over its link.
   */
  private viaSfu: ReadonlySet<string> = new Set();
  /** Peers in another breakout room (breakout/breakout-feature.ts): no media goes to them, nor chat or reactions (messenger.ts roomOnly). */
  private apart: (peerId: string) => boolean = () => false;

  constructor(
    /** This page's tracks, sent on every link. */
    readonly tracks: Record<Slot, MediaStreamTrack | null>,
    private readonly ctx: MeshContext,
  ) {}

  open(remoteId: string, initiator: boolean) {
    if (!this.links.has(remoteId)) this.links.set(remoteId, this.createLink(remoteId, initiator));
  }

  /**
   * The link to this peer once its channel is open, made now (we offer) if there is none: a file's
   * in a large call through the SFU (link-pruning.ts). Null if it does not open within `ms`.
   */
  async linkFor(peerId: string, ms = LINK_OPEN_MS): Promise<PeerLink | null> {
    this.open(peerId, true);
    for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const link = this.links.get(peerId);
      if (!link) return null;
      if (link.channel.readyState === 'open') return link;
    }
    return null;
  }

  close(peerId: string) {
    this.links.get(peerId)?.close();
    this.links.delete(peerId);
  }

  closeAll() {
    for (const link of this.links.values()) link.close();
    this.links.clear();
  }

  /** A track into every link (replaceTrack: no renegotiation). */
  async setTrack(slot: Slot, track: MediaStreamTrack | null) {
    this.tracks[slot] = track;
    await Promise.all([...this.links].filter(([id]) => !this.viaSfu.has(id)).map(([id, link]) => link.setTrack(slot, this.linkTracks(id)[slot])));
  }

  /** A new breakout partition: each link carries our tracks again, or none (replaceTrack, no renegotiation). */
  async setApart(apart: (peerId: string) => boolean) {
    this.apart = apart;
    await Promise.all([...this.links].flatMap(([id, link]) => SLOTS.map((slot) => link.setTrack(slot, this.linkTracks(id)[slot]))));
  }

  isApart(peerId: string): boolean {
    return this.apart(peerId);
  }

  /** Which peers get our media through the SFU; the others over their link (replaceTrack, no renegotiation). */
  async setViaSfu(peers: ReadonlySet<string>) {
    const before = this.viaSfu;
    this.viaSfu = peers;
    const changed = [...this.links].filter(([id]) => before.has(id) !== peers.has(id));
    await Promise.all(changed.flatMap(([id, link]) => SLOTS.map((slot) => link.setTrack(slot, this.linkTracks(id)[slot]))));
  }

  private linkTracks(peerId: string): Record<Slot, MediaStreamTrack | null> {
    return this.viaSfu.has(peerId) || this.apart(peerId) ? NO_MEDIA : this.tracks;
  }

  stopTracks() {
    for (const slot of SLOTS) this.tracks[slot]?.stop();
  }

  applyEncodings() {
    for (const [id, link] of this.links) this.applyEncodingsTo(id, link);
  }

  /**
   * A checked signal from a peer, to its link. Not awaited: the link applies its own peer's signals
   * in arrival order, and the next event — another peer's offer — need not wait for this one's
   * answer. A newcomer answers everyone at once, not one after another (issue 17).
   */
  applySignal(from: string, body: LinkSignalBody) {
    const link = this.links.get(from);
    if (!link) return;
    const applied = link.handleSignal(body);
    // The answering side has senders only after the first offer: apply the budget then.
    if ('description' in body && body.description.type === 'offer')
      void applied.then(() => {
        if (this.links.get(from) === link) this.applyEncodingsTo(from, link);
      });
  }

  applyEncodingsTo(peerId: string, link: PeerLink) {
    const encodings = this.encodingsFor(peerId);
    void link.setEncoding('camera', encodings.camera);
    void link.setEncoding('screen', encodings.screen);
  }

  private createLink(remoteId: string, initiator: boolean): PeerLink {
    const keys = this.ctx.keys();
    const { dispatch } = this.ctx;
    return new PeerLink({
      remoteId,
      polite: this.ctx.selfId > remoteId,
      initiator,
      // Frames are dropped until their transform has a key (fail-closed); DTLS uses the
      // certificate whose fingerprint our announcement carries.
      rtcConfig: { ...this.ctx.rtcConfig(), ...keys.frames.rtcConfig, certificates: [keys.certificate] },
      tracks: { ...this.linkTracks(remoteId) },
      sendSignal: (payload) => this.ctx.sendSignal(remoteId, payload),
      attachSender: (slot, sender) => keys.attachSender(remoteId, slot, sender),
      attachReceiver: (slot, receiver) => keys.attachReceiver(remoteId, slot, receiver),
      onRemoteTrack: (slot, track) => void dispatch({ type: 'remote-track', peerId: remoteId, source: 'link', slot, track }),
      onMessage: (raw) => this.ctx.onMessage(remoteId, raw),
      onDataChannel: (channel) => this.ctx.onDataChannel(remoteId, channel),
      // A link made when we handed the key over exists before the peer proved it holds it.
      cipher: this.ctx.verified(remoteId).then(() => keys.dataCipher(remoteId)),
      onChannelOpen: () => void dispatch({ type: 'channel-open', peerId: remoteId }),
      onStateChange: (connection) => void dispatch({ type: 'link-state', peerId: remoteId, connection }),
      onWarmedUp: () => this.applyEncodings(),
      startBitrateKbps: () => startBitrateKbps(this.ctx.participants()),
      initialEncodings: this.encodingsFor(remoteId),
    });
  }

  /** What the policy sends to this peer now (encoding-policy.ts). */
  private encodingsFor(peerId: string) {
    return videoEncodings({
      participants: this.ctx.participants(),
      captureHeight: this.tracks.camera?.getSettings().height ?? 720,
      visible: this.ctx.visible(peerId),
      camera: Boolean(this.tracks.camera),
      screen: Boolean(this.tracks.screen),
      // Before its link exists (its first encodings) a connection is warming up too.
      warmingUp: !this.links.get(peerId)?.warmedUp,
    });
  }
}
