// One seam for every message of the call (issue 46; docs/meetings.md "Messages through the SFU"):
// chat, state, reactions, the features' messages (whiteboard, polls, captions, breakout rooms) and
// the host's rekey. Each goes through the SFU, sealed once (sfu/sfu-data.ts), to those who hear us
// there, and over the pair's link to the others; a message for several carries a number `_n`, so
// that a copy that came both ways is kept once. Room-only messages (chat, reactions, captions) never
// reach another breakout room: while rooms are open they go to each peer alone. A large call
// through the SFU has no links (link-pruning.ts): there a peer that does not hear us yet gets the
// call's state when it does (session.ts reachable). On the mesh nobody hears us through the SFU and everything goes over
// the links, as before. Only types come from sfu/: the mesh loads none of the SFU's code.
import type { SfuData } from '../sfu/sfu-data';
import { LINK_OFF } from './link-pruning';

/** Messages that stay inside a breakout room (breakout/breakout-feature.ts). */
export const roomOnly = (t: string) => t === 'chat' || t === 'reaction' || t.startsWith('caption-');
/** sfu/sfu-data.ts BYE: a peer stops hearing us through the SFU. Spelt out here so the mesh loads none of the SFU's code. */
const BYE = 'sfu-bye';
/** How many numbers of each sender are remembered, to keep one copy of a message that came both ways. */
export const DEDUPE_WINDOW = 256;
/**
 * Messages where the newest wins: one sent over the link just before a peer started (or stopped)
 * hearing us may arrive after a newer one that went the other way, and must not undo it.
 */
const NEWEST_WINS = new Set(['state']);

export interface MessengerContext {
  /** Everyone in the call we could talk to: verified peers. */
  peers(): readonly string[];
  /** Each peer's link (links/peer.ts PeerLink): false when its channel is not open. */
  links(): ReadonlyMap<string, { send(message: unknown): boolean }>;
  /** In another breakout room now (call/mesh.ts isApart). */
  apart(peerId: string): boolean;
  /** Our messages through the SFU, once that side is loaded. */
  sfu(): Pick<SfuData, 'hearing' | 'broadcast' | 'send' | 'byeFrom'> | null;
  /** A message checked for its room and kept once: to the features or the machine. */
  deliver(from: string, message: { t: string }): void;
  /** The peer closes its side of our link (link-pruning.ts). */
  linkOff(from: string): void;
}

type Numbered = { t: string; _n?: unknown; upTo?: unknown };

export class Messenger {
  private next = 0;
  /** Per sender, the numbers seen, oldest first. */
  private readonly seen = new Map<string, { numbers: Set<number>; order: number[] }>();
  /** Per sender and type (NEWEST_WINS), the number of the newest applied. */
  private readonly newest = new Map<string, number>();

  constructor(private readonly ctx: MessengerContext) {}

  /** One message for everyone in the call (in our breakout room, for a room-only one). */
  broadcast(message: { t: string }) {
    this.sendToAll(this.ctx.peers(), message);
  }

  /**
   * One message for these peers: sealed once through the SFU for those who hear us there, over the
   * link to each of the others, and over the link to everyone if the SFU cannot take it.
   */
  sendToAll(peerIds: readonly string[], message: { t: string }) {
    const contained = roomOnly(message.t);
    const to = contained ? peerIds.filter((id) => !this.ctx.apart(id)) : [...peerIds];
    if (to.length === 0) return;
    const numbered = { ...message, _n: this.next++ };
    // While rooms are open a room-only message goes to each peer alone (its link, or through the SFU
    // under the pair's key): sealed once, the SFU would carry it to whoever still holds our key of
    // before the split (e2ee-crypto.md "Breakout key epochs").
    if (contained && this.ctx.peers().some((id) => this.ctx.apart(id))) {
      for (const id of to) this.send(id, numbered);
      return;
    }
    const sfu = this.ctx.sfu();
    const hearing = new Set(sfu ? sfu.hearing().filter((id) => to.includes(id)) : []);
    const throughSfu = hearing.size > 0 && sfu!.broadcast(numbered, [...hearing]);
    for (const id of to) if (!throughSfu || !hearing.has(id)) this.link(id, numbered);
  }

  /** One message for one peer: through the SFU if it hears us there, else (or if the SFU cannot take it) over its link. */
  send(peerId: string, message: { t: string }): boolean {
    const sfu = this.ctx.sfu();
    if (sfu?.hearing().includes(peerId) && sfu.send(peerId, message)) return true;
    return this.link(peerId, message);
  }

  /** Over the pair's link only: our bye, and what the SFU could not take after all. */
  link(peerId: string, message: { t: string }): boolean {
    return this.ctx.links().get(peerId)?.send(message) ?? false;
  }

  /** A message from a peer, over its link or through the SFU (proven to be its either way). */
  receive(from: string, raw: unknown) {
    if (typeof raw !== 'object' || raw === null || typeof (raw as Numbered).t !== 'string') return;
    const { _n: number, ...message } = raw as Numbered;
    if (message.t === BYE) return this.ctx.sfu()?.byeFrom(from, message.upTo);
    if (message.t === LINK_OFF) return this.ctx.linkOff(from);
    // An honest page in another room never sends it.
    if (roomOnly(message.t) && this.ctx.apart(from)) return;
    if (typeof number === 'number' && (!this.first(from, number) || !this.newer(from, message.t, number))) return;
    this.ctx.deliver(from, message);
  }

  /** False for a NEWEST_WINS message older than one of its kind already applied. */
  private newer(from: string, t: string, number: number): boolean {
    if (!NEWEST_WINS.has(t)) return true;
    const key = `${from} ${t}`;
    if (number < (this.newest.get(key) ?? -1)) return false;
    this.newest.set(key, number);
    return true;
  }

  /** True the first time this sender's number comes. */
  private first(from: string, number: number): boolean {
    const seen = this.seen.get(from) ?? { numbers: new Set<number>(), order: [] };
    this.seen.set(from, seen);
    if (seen.numbers.has(number)) return false;
    seen.numbers.add(number);
    seen.order.push(number);
    if (seen.order.length > DEDUPE_WINDOW) seen.numbers.delete(seen.order.shift()!);
    return true;
  }
}
