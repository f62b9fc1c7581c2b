// Whether this page's media goes peer to peer (the mesh) or through the SFU (issue 38), and the
// move between the two. Every participant decides from what all of them see, the number in the
// call, so all move together without a coordinator: to the SFU from SFU_FROM participants, back
// to the mesh at MESH_UP_TO (the gap keeps one join or leave at the edge from moving everyone
// twice). Through the SFU the mesh links stay for the data channels (chat, state, files) and
// carry no media. A server without an SFU answers no ticket: the call stays a mesh.
import type { RoomMediaRoute, SfuTicket } from '@/lib/meeting/protocol';
import type { MeetingCrypto } from '../keys/meeting-crypto';
import { sfuLayer } from '../links/quality';
import type { Slot } from '../links/slots';
import type { SenderKeyRing } from '../sfu/sender-key-ring';
import type { SfuMedia } from '../sfu/sfu-media';

/** From this many participants (ourselves included) media goes through the SFU. */
export const SFU_FROM = 6;
/** At this many or fewer it comes back to the mesh. */
export const MESH_UP_TO = 4;

export type MediaRoute = 'mesh' | 'sfu';
/** A route pinned, or 'auto' from this many participants (and back to the mesh at meshUpTo). */
export type RoutePin = MediaRoute | { sfuFrom: number; meshUpTo: number };
export const AUTO: RoutePin = { sfuFrom: SFU_FROM, meshUpTo: MESH_UP_TO };

/**
 * The pin from the meeting page's address: `?media=sfu` or `?media=mesh`; `?sfuFrom=N` moves at N
 * and back below it (tests and benches: a move with 3 browsers); otherwise automatic.
 */
export function mediaRouteOf(search: string): RoutePin {
  const params = new URLSearchParams(search);
  const media = params.get('media');
  if (media === 'sfu' || media === 'mesh') return media;
  const from = Number(params.get('sfuFrom'));
  return Number.isInteger(from) && from >= 2 && from <= 100 ? { sfuFrom: from, meshUpTo: from - 1 } : AUTO;
}

/**
 * The pin a call starts with: the address's (`?media=` / `?sfuFrom=`, tests and benches) when it
 * names one, otherwise the room's "Calls in this room" setting (MeetingInfo.mediaRoute).
 */
export function routePin(search: string, room: RoomMediaRoute): RoutePin {
  const fromAddress = mediaRouteOf(search);
  // mediaRouteOf answers AUTO itself only when the address pins nothing.
  if (fromAddress !== AUTO) return fromAddress;
  return room === 'auto' ? AUTO : room;
}

export function chooseRoute(current: MediaRoute, participants: number, pin: RoutePin): MediaRoute {
  if (typeof pin === 'string') return pin;
  if (participants >= pin.sfuFrom) return 'sfu';
  if (participants <= pin.meshUpTo) return 'mesh';
  return current;
}

export interface SfuRouteContext {
  selfId: string;
  pin: RoutePin;
  participants(): number;
  verifiedPeers(): string[];
  keys(): MeetingCrypto;
  rtcConfig(): RTCConfiguration;
  tracks(): Record<Slot, MediaStreamTrack | null>;
  ticket(): Promise<SfuTicket | null>;
  sendSignal(peerId: string, body: { senderKey: { generation: number; box: string } }): void;
  onRemoteTrack(peerId: string, slot: Slot, track: MediaStreamTrack): void;
  /** The peers that get our media through the SFU (they publish there too); the links to the others carry it. */
  setViaSfu(peers: ReadonlySet<string>): Promise<void>;
  /** Whether we show this peer's camera tile now. */
  showing(peerId: string): boolean;
}

const NONE: ReadonlyMap<string, RTCRtpReceiver> = new Map();

export class SfuRoute {
  route: MediaRoute = 'mesh';
  private media: SfuMedia | null = null;
  /** Loaded with its code the first time a sender key is made or arrives: a mesh never loads it. */
  private ring: Promise<SenderKeyRing> | null = null;
  /** No ticket was given: this server has no SFU, so we stop asking. */
  private unavailable = false;
  private moving: Promise<void> = Promise.resolve();
  private renewal: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly ctx: SfuRouteContext) {}

  /** After every change in who is here: moves if the count says so, and asks each camera's layer anew. */
  update(): Promise<void> {
    this.moving = this.moving.then(() => this.apply()).catch((error: unknown) => console.warn('media route', error));
    void this.moving.then(() => this.applyLayers());
    return this.moving;
  }

  /** Each tile's layer through the SFU (quality.ts sfuLayer): after a count or visibility change. */
  async applyLayers() {
    const media = this.media;
    if (!media) return;
    const participants = this.ctx.participants();
    await Promise.all(this.ctx.verifiedPeers().map((id) => media.setLayer(id, sfuLayer(participants, this.ctx.showing(id))).catch(() => undefined)));
  }

  peerVerified(peerId: string) {
    void this.ring?.then((ring) => ring.peerVerified(peerId));
  }

  peerLeft(peerId: string) {
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

  private stopMedia() {
    if (this.renewal) clearTimeout(this.renewal);
    this.renewal = null;
    this.media?.close();
    this.media = null;
  }

  /** A fresh ticket a minute before this one's token expires (sfu ticket: TICKET_SECONDS). */
  private renewBefore(expiresAt: number) {
    this.renewal = setTimeout(async () => {
      const next = await this.ctx.ticket();
      if (next && this.media) {
        this.media.renew(next);
        this.renewBefore(next.expiresAt);
      }
    }, Math.max(10_000, expiresAt - Date.now() - 60_000));
  }

  private async apply() {
    const wanted = this.unavailable ? 'mesh' : chooseRoute(this.route, this.ctx.participants(), this.ctx.pin);
    if (wanted === this.route) return;
    if (wanted === 'sfu') await this.toSfu();
    else await this.toMesh();
  }

  private async toSfu() {
    const ticket = await this.ctx.ticket();
    if (!ticket) {
      this.unavailable = true;
      return;
    }
    this.ring ??= this.makeRing();
    await (await this.ring).start();
    const keys = this.ctx.keys();
    const { SfuMedia } = await import('../sfu/sfu-media');
    this.media = await SfuMedia.start({
      selfId: this.ctx.selfId,
      ticket,
      frames: keys.frames,
      rtcConfig: () => this.ctx.rtcConfig(),
      tracks: { ...this.ctx.tracks() },
      onRemoteTrack: (peerId, slot, track) => this.ctx.onRemoteTrack(peerId, slot, track),
      onLost: () => void this.lost(),
      onSubscribed: () => void this.applyLayers(),
      // Someone who publishes there also receives there: our link to them can stop carrying media.
      onPublishers: (ids) => void (this.route === 'sfu' && this.ctx.setViaSfu(new Set(ids))),
    });
    this.route = 'sfu';
    this.renewBefore(ticket.expiresAt);
    await this.ctx.setViaSfu(new Set(this.media.publishing()));
  }

  private async toMesh() {
    await this.ctx.setViaSfu(new Set());
    this.stopMedia();
    this.route = 'mesh';
  }

  /** Janus went away: media goes back over the links rather than nowhere. */
  private async lost() {
    this.unavailable = true;
    await this.update();
  }

  private async makeRing(): Promise<SenderKeyRing> {
    const keys = this.ctx.keys();
    const { SenderKeyRing } = await import('../sfu/sender-key-ring');
    return new SenderKeyRing({
      frames: keys.frames,
      peers: () => this.ctx.verifiedPeers(),
      seal: (peerId, key) => keys.sealSenderKey(peerId, key),
      open: (peerId, generation, box) => keys.openSenderKey(peerId, generation, box),
      send: (peerId, body) => this.ctx.sendSignal(peerId, body),
    });
  }
}
