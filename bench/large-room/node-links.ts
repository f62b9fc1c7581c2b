// A Node participant's links (NodeLink, one connection per peer) for the large-room bench: made
// as the browser makes them (the smaller id offers, once the peer is verified), made anew after a
// failure, and through the SFU kept only while the call keeps links (crowd-policy.ts, LINKS_UP_TO).
// Above that they go as a page's go, by agreement, with the app's own LinkPruning
// (lib/meeting/client/call/link-pruning.ts): once the two hear each other through the SFU, a
// `link-off` through Janus and our side closed RETIRE_MS later; the peer's `link-off` closes ours at once.
import { LinkPruning } from '@/lib/meeting/client/call/link-pruning';
import type { SignalPayload } from '@/lib/meeting/client/links/peer';
import type { NodeCertificate } from './node-certificate';
import type { NodeFrames } from './node-frames';
import { NodeLink } from './node-link';

/** How often links are looked at for pruning beyond the events that prompt it (as a page: call/session.ts). */
const PRUNE_EVERY_MS = 5000;

export interface NodeLinksOptions {
  selfId: string;
  certificate: NodeCertificate;
  frames: NodeFrames;
  sendSignal(peerId: string, payload: SignalPayload): void;
  onFirstAudio(peerId: string): void;
  /** Whether a new link to this peer is made (or answered) now: still in the call, wanted at this size. */
  wanted(peerId: string): boolean;
  /** Whether a failed link to this peer is made anew (the bench may spare some). */
  canRelink(peerId: string): boolean;
  /** Whether the call keeps its links now (crowd-policy.ts keepsLinks): if not, they go by agreement. */
  keepsLinks(): boolean;
  /** The call's messages through the SFU, for the agreement; none on the mesh. */
  sfu(): { hearing(): readonly string[]; send(peerId: string, message: { t: string }): boolean } | null;
}

export class NodeLinks {
  readonly map = new Map<string, NodeLink>();
  /** Connections made again after they failed. */
  relinks = 0;
  private readonly pruning: LinkPruning;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly options: NodeLinksOptions) {
    this.pruning = new LinkPruning({
      keepsLinks: () => options.keepsLinks(),
      links: () => this.map,
      hearing: () => options.sfu()?.hearing() ?? [],
      send: (peerId, message) => void options.sfu()?.send(peerId, message),
      close: (peerId) => this.drop(peerId),
      reopen: (peerId) => this.verified(peerId),
    });
    this.timer = setInterval(() => this.prune(), PRUNE_EVERY_MS);
  }

  /** A peer's keys are verified: in each pair the smaller id makes the offer (as session.ts). */
  verified(peerId: string) {
    if (this.options.selfId < peerId && !this.map.has(peerId) && this.options.wanted(peerId)) this.create(peerId, true);
  }

  /** A description or candidate from a peer: to its link, or to a new one for an offer we take. */
  signal(from: string, body: SignalPayload) {
    const current = this.map.get(from);
    if (!current && !this.options.wanted(from)) return;
    // A new offer for a connection that failed: the other side starts over (see relink).
    const fresh = !current || (current.isFailed && body.description?.type === 'offer');
    (fresh ? this.create(from, false) : current).handleSignal(body);
  }

  /** The count changed or we hear someone new through the SFU: links the call no longer keeps go by agreement. */
  prune() {
    this.pruning.prune();
  }

  /** The peer's `link-off` through the SFU: its side is closed, ours goes now. */
  offFrom(peerId: string) {
    this.pruning.offFrom(peerId);
  }

  /** The peer left the call. */
  drop(peerId: string) {
    this.map.get(peerId)?.close();
    this.map.delete(peerId);
  }

  close() {
    clearInterval(this.timer);
    this.pruning.close();
    for (const link of this.map.values()) link.close();
    this.map.clear();
  }

  private create(remoteId: string, initiator: boolean): NodeLink {
    const link = new NodeLink({
      selfId: this.options.selfId,
      remoteId,
      initiator,
      certificate: this.options.certificate,
      frames: this.options.frames,
      sendSignal: (payload) => this.options.sendSignal(remoteId, payload),
      onFirstAudio: () => this.options.onFirstAudio(remoteId),
      onFailed: () => this.relink(remoteId, link),
    });
    this.map.set(remoteId, link);
    return link;
  }

  /**
   * A connection that failed is made again, as the browser restarts ICE (peer.ts): the offerer
   * (smaller id) starts a new one after a short pause; the other side replaces its own when that
   * offer comes. libdatachannel cannot restart ICE on a connection, so this is a new one. A link
   * being retired by agreement, or no longer wanted, is not.
   */
  private relink(remoteId: string, link: NodeLink) {
    setTimeout(() => {
      // A retired link goes by agreement (LinkPruning closes it); one no longer wanted goes now.
      if (this.map.get(remoteId) !== link || link.retired || !this.options.canRelink(remoteId)) return;
      if (!this.options.wanted(remoteId)) return this.drop(remoteId);
      this.relinks += 1;
      link.close();
      if (this.options.selfId < remoteId) this.create(remoteId, true);
    }, 500);
  }
}
