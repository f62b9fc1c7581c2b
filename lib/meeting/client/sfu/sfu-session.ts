// The SFU side of a call (issue 38): our sender keys, the SFU connections, the ticket's renewal
// and each tile's layer. It only carries out moves: when to move, the refusal and the back-off are
// the meeting machine's (call/route-decisions.ts), which gets each move's outcome back. Through
// the SFU the call's messages go through Janus's data channels too, sealed once (sfu-data.ts), to
// those who hear us there; the mesh links serve the others and files, and carry our media only
// to peers not yet there (in a large call there are none: call/link-pruning.ts). Loaded only when a call wants the SFU (call/sfu-route.ts).
import type { MeetingCrypto } from '../keys/meeting-crypto';
import { sfuLayer } from './layers';
import type { Slot } from '../links/slots';
import { sealsWith, SenderKeyRing } from './sender-key-ring';
import type { ScheduleSettings } from './key-schedule';
import { SfuMedia, type SfuMediaContext } from './sfu-media';
import { DRAIN_MS, SfuData } from './sfu-data';
import { sealToEveryone } from '@/lib/meeting/e2ee/sender-data';
import { fetchSfuTicket, type TicketAnswer } from '../signaling/sfu-ticket';

export interface SfuSessionContext {
  selfId: string;
  participants(): number;
  verifiedPeers(): string[];
  /** Everyone in the call now, verified or not: those here before our first key may hold it (sender-key-ring.ts). */
  presentPeers?(): string[];
  keys(): MeetingCrypto;
  rtcConfig(): RTCConfiguration;
  tracks(): Record<Slot, MediaStreamTrack | null>;
  /** For POST /api/meeting/{id}/sfu: the meeting and our join token. */
  meetingId: string;
  token: string;
  sendSignal(peerId: string, body: { senderKey: { generation: number; box: string } }): void;
  /** The sender keys' schedule where it differs from DEFAULT_SCHEDULE (`?keyEvery=`). */
  keySchedule?: Partial<ScheduleSettings>;
  onRemoteTrack(peerId: string, slot: Slot, track: MediaStreamTrack): void;
  /** The peers that get our media through the SFU (they publish there too); the links to the others carry it. */
  setViaSfu(peers: ReadonlySet<string>): Promise<void>;
  /** Whether we show this peer's camera tile now. */
  showing(peerId: string): boolean;
  /** Janus went away while our media went through it. */
  onLost(): void;
  /** The call's messages through the SFU: one opened (to the messenger, call/messenger.ts), the pair's link for a bye, a peer heard both ways. */
  messages?: { deliver(from: string, message: unknown): void; sendLink(peerId: string, message: { t: string }): boolean; heard?(peerId: string): void };
}

/** What the session uses of the SFU's connections. */
export type SfuMediaSide = Pick<
  SfuMedia,
  'publishing' | 'setTrack' | 'renew' | 'setLayer' | 'connections' | 'close' | 'audioReceivers' | 'regroup' | 'peek' | 'sendData' | 'drain' | 'subscriptions'
>;

/** The session's two reaches outside the page: the server's ticket, and Janus. Tests give their own. */
export interface SfuSessionReach {
  fetchTicket(meetingId: string, token: string): Promise<TicketAnswer>;
  startMedia(ctx: SfuMediaContext): Promise<SfuMediaSide>;
}

const REACH: SfuSessionReach = { fetchTicket: fetchSfuTicket, startMedia: (ctx) => SfuMedia.start(ctx) };

/** A move to the SFU: there, or 'none' (the server has no SFU) or 'failed' (not now). */
export type SfuOutcome = 'sfu' | 'none' | 'failed';

/** How long a failed ticket renewal waits before asking again. */
const RENEW_RETRY_MS = 30_000;

const NONE: ReadonlyMap<string, RTCRtpReceiver> = new Map();

/** The SFU side of a call, loaded the first time the call wants the SFU or a sender key arrives (call/sfu-route.ts). */
export class SfuSession {
  private media: SfuMediaSide | null = null;
  /** Made the first time a sender key is made or arrives. */
  private ring: Promise<SenderKeyRing> | null = null;
  private ringNow: SenderKeyRing | null = null;
  /** Janus went away: the move back to the mesh does not wait for messages on their way (there are none). */
  private lost = false;
  /** The connection of our last move back to the mesh, until its drain is over. */
  private draining: SfuMediaSide | null = null;
  /** The call's messages through Janus (sfu-data.ts): kept across moves, so each sender's numbers go on. */
  readonly data: SfuData;
  private renewal: ReturnType<typeof setTimeout> | null = null;
  /** Peers in another breakout room than ours: they get none of our keys and we do not subscribe to them. */
  private apart: (peerId: string) => boolean = () => false;

  constructor(
    private readonly ctx: SfuSessionContext,
    private readonly reach: SfuSessionReach = REACH,
  ) {
    this.data = new SfuData({
      selfId: ctx.selfId,
      roomId: ctx.meetingId,
      ring: () => this.ringNow,
      directKeys: (peerId) => ctx.keys().directKeys(peerId),
      deliver: (from, message) => ctx.messages?.deliver(from, message),
      sendLink: (peerId, message) => ctx.messages?.sendLink(peerId, message) ?? false,
      heard: (peerId) => ctx.messages?.heard?.(peerId),
    });
  }

  /** Where our media goes, as this side sees it (the probe reads the machine's). */
  get route(): 'mesh' | 'sfu' {
    return this.media ? 'sfu' : 'mesh';
  }

  /** Each tile's layer through the SFU (sfu/layers.ts sfuLayer): after a count or visibility change. */
  async applyLayers() {
    const media = this.media;
    if (!media) return;
    const participants = this.ctx.participants();
    await Promise.all(this.ctx.verifiedPeers().map((id) => media.setLayer(id, sfuLayer(participants, this.ctx.showing(id))).catch(() => undefined)));
  }

  /**
   * Breakout rooms opened, closed or the host moved (breakout/breakout-feature.ts): a new key
   * epoch for our room (sender-key-ring.ts regroup) and a subscription to our room only. Kept for
   * a later move to the SFU: rooms open on the mesh stay apart there.
   */
  regroup(apart: (peerId: string) => boolean) {
    this.apart = apart;
    void this.ring?.then((ring) => ring.regroup(apart));
    this.media?.regroup();
  }

  /** Tests only (probe.ts): the newest key each sender handed us, raw. */
  async heldKeys(): Promise<Record<string, { generation: number; key: number[] }>> {
    const held = (await this.ring)?.heldKeys() ?? {};
    return Object.fromEntries(Object.entries(held).map(([id, { generation, key }]) => [id, { generation, key: [...key] }]));
  }

  /** Tests only (probe.ts): our frames sealed with a key we hold of another sender (sender-key-ring.ts impersonate). */
  async impersonate(participantId: string, generation?: number): Promise<boolean> {
    return (await this.ring)?.impersonate(participantId, generation) ?? false;
  }

  /**
   * Tests only (probe.ts, for an end-to-end test of the messages): a message to everyone in another
   * participant's name, sealed under the newest key it handed us (which opens for everyone who holds
   * it) and signed with our own proof key, as a forging participant would; every receiver must drop
   * it as forged. Numbered far ahead, so that no replay check drops it first. False without a key or a connection.
   */
  async forgeMessage(participantId: string, message: { t: string; [field: string]: unknown }): Promise<boolean> {
    const ring = await this.ring;
    const generation = ring?.received()[participantId];
    const key = generation === undefined ? null : await ring!.opening(participantId, generation);
    const own = await ring?.sealing();
    if (!key || !own || !this.media) return false;
    const seq = 2 ** 40 + Math.floor(Math.random() * 2 ** 20);
    return this.media.sendData(await sealToEveryone(this.ctx.meetingId, { senderId: participantId, key, signer: own.signer }, seq, JSON.stringify(message)));
  }

  /** Tests only (probe.ts): subscribe to a publisher of another room, whose frames must not open here. */
  peek(participantId: string) {
    this.media?.peek(participantId);
  }

  peerVerified(peerId: string) {
    void this.ring?.then((ring) => ring.peerVerified(peerId));
    // A publisher we heard before it was verified: greeted again, now that the greeting can be sealed for it.
    if (this.media?.subscriptions().includes(peerId) && !this.data.hearing().includes(peerId)) this.data.opened([peerId]);
  }

  peerLeft(peerId: string) {
    this.data.lost(peerId);
    void this.ring?.then((ring) => ring.peerLeft(peerId));
  }

  async receiveSenderKey(from: string, generation: number, box: string): Promise<void> {
    // Kept even on the mesh: a peer that moved first sends its key before we follow.
    this.ring ??= this.makeRing();
    await (await this.ring).receive(from, generation, box);
  }

  async setTrack(slot: Slot, track: MediaStreamTrack | null) {
    await this.media?.setTrack(slot, track);
  }

  /** Our key's generation and the newest we hold of each sender's (tests: who got which rotation). */
  async senderKeys(): Promise<{ own: number | null; received: Record<string, number> }> {
    const ring = await this.ring;
    return { own: ring?.generation ?? null, received: ring?.received() ?? {} };
  }

  /** Audio receivers by participant while media goes through the SFU; none on the mesh. */
  audioReceivers(): ReadonlyMap<string, RTCRtpReceiver> {
    return this.media?.audioReceivers ?? NONE;
  }

  connections(): RTCPeerConnection[] {
    return this.media?.connections() ?? [];
  }

  close() {
    void this.ring?.then((ring) => ring.stop());
    this.stopMedia();
  }

  /** Our media to the SFU: a ticket, our sender key, then Janus. */
  async toSfu(): Promise<SfuOutcome> {
    const ticket = await this.reach.fetchTicket(this.ctx.meetingId, this.ctx.token);
    if (typeof ticket !== 'object') return ticket;
    this.ring ??= this.makeRing();
    await (await this.ring).start();
    const keys = this.ctx.keys();
    this.lost = false;
    // Janus takes one publisher per id: a drain still under way ends now.
    this.endDrain();
    // Ours to send on as soon as its channel opens; greetings and answers may come before start() returns.
    let started: SfuMediaSide | null = null;
    this.data.attach({ send: (bytes) => started?.sendData(bytes) ?? false });
    const media = await this.reach
      .startMedia({
        selfId: this.ctx.selfId,
        ticket,
        frames: keys.frames,
        rtcConfig: () => this.ctx.rtcConfig(),
        tracks: { ...this.ctx.tracks() },
        onRemoteTrack: (peerId, slot, track) => this.ctx.onRemoteTrack(peerId, slot, track),
        onLost: () => {
          this.lost = true;
          this.ctx.onLost();
        },
        onSubscribed: () => void this.applyLayers(),
        apart: (id) => this.apart(id),
        // Someone who publishes there also receives there: our link to them can stop carrying media.
        // Only while this connection is ours: one draining after a move to the mesh re-routes nothing.
        onPublishers: (ids) => void (started && this.media === started && this.ctx.setViaSfu(new Set(ids))),
        data: {
          receive: (bytes) => this.data.receive(bytes),
          opened: (ids) => this.data.opened(ids),
          lost: (id) => this.data.lost(id),
          bye: (ids) => this.data.bye(ids),
        },
      })
      .catch((error: unknown) => {
        // Janus refused the join or the connection (a room being closed, a node going down).
        console.warn('sfu start', error);
        return null;
      });
    if (!media) {
      this.data.attach(null);
      return 'failed';
    }
    started = media;
    this.media = media;
    this.renewBefore(ticket.expiresAt);
    await this.ctx.setViaSfu(new Set(this.media.publishing()));
    await this.applyLayers();
    return 'sfu';
  }

  /**
   * Our media back over the links, and our messages. The Janus connection is released first, so
   * that no publisher event re-routes media meanwhile; each publisher we hear is told goodbye and
   * the connection stays DRAIN_MS, so messages sent to us through Janus before they heard it still
   * arrive. After a loss there is nothing to wait for: it closes at once (failover must not wait).
   */
  async toMesh(): Promise<void> {
    const media = this.releaseMedia();
    this.data.attach(null);
    if (media) {
      this.data.bye(media.subscriptions());
      if (this.lost) media.close();
      else {
        media.drain();
        this.endDrain();
        this.draining = media;
        setTimeout(() => this.draining === media && this.endDrain(), DRAIN_MS);
      }
    }
    await this.ctx.setViaSfu(new Set());
  }

  private stopMedia() {
    this.data.attach(null);
    this.releaseMedia()?.close();
    this.endDrain();
  }

  private endDrain() {
    this.draining?.close();
    this.draining = null;
  }

  private releaseMedia(): SfuMediaSide | null {
    if (this.renewal) clearTimeout(this.renewal);
    this.renewal = null;
    const media = this.media;
    this.media = null;
    return media;
  }

  /**
   * A fresh ticket a minute before this one's token expires (sfu ticket: TICKET_SECONDS), asked
   * again every RENEW_RETRY_MS while the server cannot give one; if none comes in time, Janus ends
   * the session and the call goes back to the mesh (onLost).
   */
  private renewBefore(expiresAt: number, delay = Math.max(10_000, expiresAt - Date.now() - 60_000)) {
    this.renewal = setTimeout(async () => {
      const next = await this.reach.fetchTicket(this.ctx.meetingId, this.ctx.token);
      if (!this.media) return;
      if (typeof next === 'object') {
        this.media.renew(next);
        this.renewBefore(next.expiresAt);
      } else if (next === 'failed') {
        this.renewBefore(expiresAt, RENEW_RETRY_MS);
      }
    }, delay);
  }

  private async makeRing(): Promise<SenderKeyRing> {
    const keys = this.ctx.keys();
    const ring = new SenderKeyRing({
      frames: keys.frames,
      peers: () => this.ctx.verifiedPeers(),
      here: () => this.ctx.presentPeers?.() ?? this.ctx.verifiedPeers(),
      ...sealsWith(keys),
      send: (peerId, body) => this.ctx.sendSignal(peerId, body),
      schedule: this.ctx.keySchedule,
    });
    // Rooms opened on the mesh: our first key through the SFU is already our room's.
    ring.regroup(this.apart);
    this.ringNow = ring;
    return ring;
  }
}
