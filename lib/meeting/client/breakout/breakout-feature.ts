// Breakout rooms as a call feature (call/features.ts): the host's control messages (`breakout-*`)
// travel sealed over the pairs' channels like chat, so the server sees nothing new. A room is a
// partition of the call's mesh: each page stops sending its media and chat to everyone outside its
// room (call/mesh.ts setApart) and hides them, so nobody receives, let alone decrypts, another
// room's frames. Through the SFU the same split gives each room its own sender keys and its own
// subscriptions (sfu/sender-key-ring.ts, sfu/sfu-media.ts: regroup); the host may visit a room.
// The rules are pure (breakout-rules.ts); this runs them and the countdown.
import type { CallFeature, FeatureContext, FeatureDefinition } from '../call/features';
import { apart, backToMain, initialBreakout, parseBreakoutMessage, reduceBreakout, type BreakoutMessage, type BreakoutState } from './breakout-rules';

export class BreakoutFeature implements CallFeature {
  readonly prefix = 'breakout-';
  private state: BreakoutState = initialBreakout;
  private readonly listeners = new Set<() => void>();
  private countdown: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly ctx: FeatureContext) {}

  getState = () => this.state;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** Whether this peer is in another room than ours now. */
  isApart(peerId: string): boolean {
    return apart(this.state.open, this.ctx.selfId, peerId);
  }

  /** A peer's message: checked (breakout-rules.ts), obeyed only as the rules allow; hostile input is dropped. */
  receive(peerId: string, raw: { t: string }) {
    const message = parseBreakoutMessage(raw);
    if (message) this.apply(message, peerId, this.ctx.isHost(peerId));
  }

  /** Host: opens the rooms with this assignment (peer id → room index). */
  open(count: number, rooms: Record<string, number>) {
    this.act({ t: 'breakout-open', round: this.state.round + 1, count, rooms });
  }

  /** Host: everyone back to the main room, now or after `seconds`. */
  closeRooms(seconds: number) {
    if (this.state.open) this.act({ t: 'breakout-close', round: this.state.open.round, seconds });
  }

  /** Host: a message to every room. */
  say(text: string) {
    if (this.state.open) this.act({ t: 'breakout-say', round: this.state.open.round, text });
  }

  /** Host: joins a room (its media, chat and key epoch), or MAIN to go back to the main room. */
  visit(room: number) {
    if (this.state.open) this.act({ t: 'breakout-visit', round: this.state.open.round, room });
  }

  /** Participant: tells the host we need help. */
  askForHelp() {
    const open = this.state.open;
    const help: BreakoutMessage = { t: 'breakout-help', round: open?.round ?? 0 };
    if (open) this.ctx.send(open.host, help);
  }

  /** A late joiner lands in the main room: the host tells them the rooms are open, so they know whom not to reach. */
  channelOpen(peerId: string) {
    const open = this.state.open;
    if (!open || open.host !== this.ctx.selfId) return;
    const message: BreakoutMessage = { t: 'breakout-open', round: open.round, count: open.count, rooms: open.rooms };
    this.ctx.send(peerId, message);
    const visit: BreakoutMessage = { t: 'breakout-visit', round: open.round, room: open.visiting ?? -1 };
    if (open.visiting !== undefined) this.ctx.send(peerId, visit);
  }

  /** The host who opened the rooms left: nobody can close them, so everyone goes back now. */
  peerGone(peerId: string) {
    if (this.state.open?.host === peerId) this.update(backToMain(this.state));
  }

  /** The host's countdown ran out. */
  private readonly countdownEnded = () => this.update(backToMain(this.state));

  close() {
    if (this.countdown) clearTimeout(this.countdown);
    this.listeners.clear();
  }

  private act(message: BreakoutMessage) {
    if (!this.ctx.selfIsHost()) return;
    this.ctx.broadcast(message);
    this.apply(message, this.ctx.selfId, true);
  }

  private apply(message: BreakoutMessage, from: string, fromHost: boolean) {
    this.update(reduceBreakout(this.state, message, from, { selfId: this.ctx.selfId, fromHost, selfIsHost: this.ctx.selfIsHost(), now: Date.now() }));
  }

  private update(next: BreakoutState) {
    if (next === this.state) return;
    const moved = next.open !== this.state.open;
    this.state = next;
    if (this.countdown) clearTimeout(this.countdown);
    this.countdown = next.closingAt ? setTimeout(this.countdownEnded, Math.max(0, next.closingAt - Date.now())) : null;
    if (moved) this.ctx.setApart((peerId) => this.isApart(peerId));
    for (const listener of this.listeners) listener();
  }
}

/** The call's breakout rooms: `session.features.use(BREAKOUT)`. */
export const BREAKOUT: FeatureDefinition<BreakoutFeature> = { name: 'breakout', create: (ctx) => new BreakoutFeature(ctx) };
