// Polls as a call feature (call/features.ts), registered like file transfer
// (files/files-feature.ts): `poll-*` messages come here. The polls themselves (polls.ts) load the
// first time someone opens "Polls" or a poll message arrives: a dynamic import keeps their code
// out of the call's first load.
import type { CallFeature, FeatureContext, FeatureDefinition } from '../call/features';
import type { Polls } from './polls';
import type { PollMessage } from './poll-messages';

export class PollsFeature implements CallFeature {
  readonly prefix = 'poll-';
  private polls: Promise<Polls> | null = null;
  /** Once loaded, messages go straight in, in the order they came. */
  private loaded: Polls | null = null;
  private readonly listeners = new Set<(polls: Polls) => void>();

  constructor(private readonly ctx: FeatureContext) {}

  /** The call's polls, loading their code the first time. */
  load(): Promise<Polls> {
    this.polls ??= import('./polls').then(({ Polls }) => {
      const polls = new Polls({
        selfId: this.ctx.selfId,
        peers: () => this.ctx.peers(),
        send: (peerId, message: PollMessage) => this.ctx.send(peerId, message),
        sendToAll: (message: PollMessage) => this.ctx.broadcast(message),
        isHost: (peerId) => this.ctx.isHost(peerId),
        selfIsHost: () => this.ctx.selfIsHost(),
      });
      this.loaded = polls;
      for (const listener of this.listeners) listener(polls);
      return polls;
    });
    return this.polls;
  }

  /** Tells the call screen once the polls exist (someone opened them or a poll came). */
  onLoaded(listener: (polls: Polls) => void): () => void {
    this.listeners.add(listener);
    void this.polls?.then(listener);
    return () => void this.listeners.delete(listener);
  }

  receive(peerId: string, raw: { t: string }) {
    if (this.loaded) this.loaded.receive(peerId, raw);
    else void this.load().then((polls) => polls.receive(peerId, raw));
  }

  /** A peer's channel opened: if we hold polls, it hears of them (with no polls loaded there is nothing to tell). */
  channelOpen(peerId: string) {
    void this.polls?.then((polls) => polls.channelOpen(peerId));
  }

  peerGone(peerId: string) {
    void this.polls?.then((polls) => polls.peerGone(peerId));
  }
}

/** The call's polls: `session.features.use(POLLS)`. */
export const POLLS: FeatureDefinition<PollsFeature> = { name: 'polls', create: (ctx) => new PollsFeature(ctx) };
