// The call's messages, wired (issue 46): the messenger (messenger.ts) that sends each through the
// SFU or over the links, the features' context (features.ts) that sends through it, and where a
// message that arrived goes — to the feature whose prefix it carries, else to the meeting machine.
// Apart from session.ts, which only hands it the links, the SFU side and the machine.
import type { SfuData } from '../sfu/sfu-data';
import { CallFeatures } from './features';
import type { MeetingEvent, SessionState } from './meeting-state';
import { Messenger } from './messenger';

export interface MessagingContext {
  selfId: string;
  /** Bytes: the largest file sent or received (JoinAnswer.fileLimitBytes). */
  fileLimit: number;
  /** Each peer's link (links/peer.ts PeerLink). */
  links(): ReadonlyMap<string, { send(message: unknown): boolean; channel: { readyState: string } }>;
  /** A file's channel to a peer, on a link opened for it if there is none (session.ts linkFor). */
  openChannel(peerId: string, label: string): Promise<RTCDataChannel | null>;
  /** The peer closes its side of our link (link-pruning.ts). */
  linkOff(peerId: string): void;
  /** The call as the machine holds it: who is here, who is host. */
  state(): Pick<SessionState, 'self' | 'peers'>;
  /** A new breakout split: the links and the SFU side follow it (call/mesh.ts setApart, sfu/sfu-session.ts regroup). */
  setApart(apart: (peerId: string) => boolean): void;
  apart(peerId: string): boolean;
  /** Our messages through the SFU, once that side is loaded (sfu/sfu-session.ts data). */
  sfu(): SfuData | null;
  dispatch(event: MeetingEvent): Promise<void>;
}

export class Messaging {
  readonly messenger: Messenger;
  /** The data-channel features (features.ts): file transfer and those after it register here, not in session.ts. */
  readonly features: CallFeatures;

  constructor(ctx: MessagingContext) {
    const verified = () => ctx.state().peers.filter((peer) => peer.keys === 'verified');
    // The peers a feature can talk to now: keys verified, and the link's channel open or the two of us heard each other through the SFU.
    const peers = () => {
      const hearing = new Set(ctx.sfu()?.hearing());
      return verified()
        .filter((peer) => hearing.has(peer.id) || ctx.links().get(peer.id)?.channel.readyState === 'open')
        .map(({ id, name }) => ({ id, name }));
    };
    this.messenger = new Messenger({
      peers: () => verified().map(({ id }) => id),
      links: ctx.links,
      linkOff: ctx.linkOff,
      apart: ctx.apart,
      sfu: ctx.sfu,
      // A feature's messages go to it (file-*: the file transfers); the rest to the machine.
      deliver: (from, message) => void (this.features.receive(from, message) || ctx.dispatch({ type: 'peer-message', from, raw: message })),
    });
    this.features = new CallFeatures({
      selfId: ctx.selfId,
      fileLimit: ctx.fileLimit,
      peers,
      send: (peerId, message) => this.messenger.send(peerId, message),
      broadcast: (message) =>
        this.messenger.sendToAll(
          peers().map(({ id }) => id),
          message,
        ),
      sendToAll: (peerIds, message) => this.messenger.sendToAll(peerIds, message),
      openChannel: ctx.openChannel,
      // Ourselves too: a feature applies its own host's control messages through the same check (polls/poll-book.ts).
      isHost: (peerId) => {
        const { self, peers: all } = ctx.state();
        return peerId === self.id ? self.isHost : all.some((peer) => peer.id === peerId && peer.isHost);
      },
      selfIsHost: () => ctx.state().self.isHost,
      setApart: ctx.setApart,
      inAnotherRoom: ctx.apart,
    });
  }

  /** A message over a peer's link or, opened and proven, through the SFU. */
  receive(from: string, raw: unknown) {
    this.messenger.receive(from, raw);
  }

  /** A peer's main channel opened, or it hears us through the SFU: the features tell a late joiner what is under way. */
  channelOpen(peerId: string) {
    this.features.channelOpen(peerId);
  }

  /** What the SFU side reaches of the messages (sfu/sfu-session.ts messages); `heard` is the session's. */
  sfuMessages(heard: (peerId: string) => void) {
    return {
      deliver: (from: string, message: unknown) => this.receive(from, message),
      sendLink: (peerId: string, message: { t: string }) => this.messenger.link(peerId, message),
      heard,
    };
  }
}
