// Connections a call through the SFU no longer keeps (issue 46; docs/meetings.md "Connections
// through the SFU"): above LINKS_UP_TO participants (route-pin.ts) a page holds one connection,
// to the SFU. A link to a peer goes once the two of us hear each other through the SFU (its
// messages go there from then on: call/messenger.ts), no file is on it and it is not new, by agreement: we stop
// restarting it, tell the peer through the SFU (`link-off`), and close our side RETIRE_MS later;
// the peer closes its side at once. Without that, the side closed second would see an outage and
// restart ICE, and its offer would open the link again. A file opens a link when it needs one
// (session.ts linkFor), and that link goes the same way once the file is done.

/** The message that asks a peer to close its side of our link. */
export const LINK_OFF = 'link-off';
/** How long a retired link waits for the peer to close its side first. */
export const RETIRE_MS = 2000;
/**
 * A link this young is left alone: one opened for a file has no file channel until its own
 * channel is open, and the peer, which cannot tell, must not close it meanwhile.
 */
export const YOUNG_MS = 10_000;

export interface PrunedLink {
  /** A file's channel is open on it. */
  busy(): boolean;
  /** No more ICE restarts: the peer's side going first is no outage. */
  retire(): void;
}

export interface LinkPruningContext {
  /** The call keeps a link to every verified peer now (route-decisions.ts keepsLinks). */
  keepsLinks(): boolean;
  links(): ReadonlyMap<string, PrunedLink>;
  /** Peers we hear, and who hear us, through the SFU (sfu/sfu-data.ts hearing). */
  hearing(): readonly string[];
  /** A message to one peer (through the SFU: it hears us there). */
  send(peerId: string, message: { t: string }): void;
  close(peerId: string): void;
  /** A link again, to a peer whose link just went while the call keeps links after all (it shrank meanwhile). */
  reopen(peerId: string): void;
}

export class LinkPruning {
  private readonly retiring = new Map<string, ReturnType<typeof setTimeout>>();
  /** When each link was first seen here. */
  private readonly born = new Map<PrunedLink, number>();

  constructor(
    private readonly ctx: LinkPruningContext,
    private readonly times: { retireMs: number; youngMs: number; now(): number } = { retireMs: RETIRE_MS, youngMs: YOUNG_MS, now: Date.now },
  ) {}

  /** Retires every link the call no longer keeps. Cheap: called on every count change, greeting and now and then. */
  prune() {
    const links = this.ctx.links();
    const now = this.times.now();
    for (const link of this.born.keys()) if (![...links.values()].includes(link)) this.born.delete(link);
    for (const link of links.values()) if (!this.born.has(link)) this.born.set(link, now);
    if (this.ctx.keepsLinks()) return;
    const hearing = new Set(this.ctx.hearing());
    for (const [peerId, link] of links) {
      if (this.retiring.has(peerId) || !hearing.has(peerId) || link.busy() || now - this.born.get(link)! < this.times.youngMs) continue;
      link.retire();
      this.ctx.send(peerId, { t: LINK_OFF });
      const timer = setTimeout(() => {
        this.retiring.delete(peerId);
        if (this.ctx.links().get(peerId) === link) this.gone(peerId);
      }, this.times.retireMs);
      this.retiring.set(peerId, timer);
    }
  }

  /** The peer retired our link: its side is closed, so ours goes now. */
  offFrom(peerId: string) {
    if (this.ctx.links().has(peerId)) this.gone(peerId);
  }

  close() {
    for (const timer of this.retiring.values()) clearTimeout(timer);
    this.retiring.clear();
    this.born.clear();
  }

  private gone(peerId: string) {
    this.ctx.close(peerId);
    if (this.ctx.keepsLinks()) this.ctx.reopen(peerId);
  }
}
