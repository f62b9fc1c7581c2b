// Polls in the call (docs/meetings.md "Polls"): anyone launches one, everyone votes and sees the
// tally grow, the creator closes it. Loaded only when someone opens "Polls" or a poll message
// arrives (polls-feature.ts). Every message goes over the pairs' sealed main channels; the server
// never carries a question, an option or a ballot. What a message may change is decided by the
// pure poll book (poll-book.ts), after the message is checked (poll-messages.ts).
import { PollBook, type Poll } from './poll-book';
import { parsePollMessage, parsePollText, parseChoices, SNAPSHOT_BALLOTS_MAX, type PollMessage } from './poll-messages';
import { tally, type Tally } from './tally';

export interface PollsHooks {
  selfId: string;
  /** Those a message can go to now: keys verified, main channel open. */
  peers(): { id: string; name: string }[];
  send(peerId: string, message: PollMessage): boolean;
}

/** A poll as the screen shows it. */
export interface PollView {
  id: string;
  question: string;
  options: string[];
  multiple: boolean;
  /** null: we made it. */
  creatorName: string | null;
  mine: boolean;
  closed: Poll['closed'];
  tally: Tally;
  /** Our choices, or null before we vote. */
  ours: number[] | null;
  /** Closed, and the creator's count is not ours (a ballot one of us did not receive). */
  disagrees: boolean;
}

export type LaunchResult = 'launched' | 'invalid';

export class Polls {
  private readonly book: PollBook;
  /** Names of the creators as the call knew them when their poll came (they may have left since). */
  private readonly names = new Map<string, string>();
  private views: PollView[] = [];
  private readonly listeners = new Set<() => void>();
  /** Someone else's newest poll, until the person opens the polls or dismisses it (the screen's note). */
  private notice: PollView | null = null;
  /** Messages dropped as malformed or not allowed, for the probe and the tests. */
  dropped = 0;

  constructor(private readonly hooks: PollsHooks) {
    this.book = new PollBook(hooks.selfId);
  }

  // ---- for React (useSyncExternalStore) ----
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  getSnapshot = () => this.views;
  /** Kept here, not in the screen: the first poll arrives while the screen's code is still loading. */
  getNotice = () => this.notice;

  dismissNotice() {
    if (!this.notice) return;
    this.notice = null;
    for (const listener of this.listeners) listener();
  }

  launch(question: string, options: string[], multiple: boolean): LaunchResult {
    const text = parsePollText(question, options);
    if (!text) return 'invalid';
    const message: PollMessage = { t: 'poll-open', id: crypto.randomUUID(), ...text, multiple };
    this.book.apply(this.hooks.selfId, message);
    this.broadcast(message);
    this.publish();
    return 'launched';
  }

  vote(id: string, choices: number[]): boolean {
    const poll = this.book.polls.get(id);
    const checked = poll && parseChoices(choices, poll.options.length, poll.multiple);
    if (!checked || this.book.apply(this.hooks.selfId, { t: 'poll-vote', id, choices: checked }) !== 'ok') return false;
    this.broadcast({ t: 'poll-vote', id, choices: checked });
    this.publish();
    return true;
  }

  close(id: string): boolean {
    const poll = this.book.polls.get(id);
    if (!poll || poll.creator !== this.hooks.selfId) return false;
    const counts = tally(poll).counts;
    if (this.book.apply(this.hooks.selfId, { t: 'poll-close', id, counts }) !== 'ok') return false;
    this.broadcast({ t: 'poll-close', id, counts });
    this.publish();
    return true;
  }

  /** A `poll-*` message over the pair's sealed channel from `peerId` (the call verified who that is). */
  receive(peerId: string, raw: unknown) {
    const message = parsePollMessage(raw);
    const known = message ? this.book.polls.has(message.id) : true;
    const verdict = message ? this.book.apply(peerId, message) : 'invalid';
    if (verdict !== 'ok') {
      if (verdict !== 'pending') this.dropped += 1;
      return;
    }
    if (message!.t === 'poll-open' && !known) this.names.set(message!.id, this.hooks.peers().find((peer) => peer.id === peerId)?.name ?? '');
    if (!known) this.notice = this.viewOf(message!.id);
    this.publish();
  }

  /** Someone's main channel opened: they hear of our open polls (with their ballots) and our ballots. */
  channelOpen(peerId: string) {
    for (const message of this.book.introduction(SNAPSHOT_BALLOTS_MAX)) this.hooks.send(peerId, message);
  }

  peerGone(peerId: string) {
    if (this.book.peerGone(peerId)) this.publish();
  }

  private broadcast(message: PollMessage) {
    for (const peer of this.hooks.peers()) this.hooks.send(peer.id, message);
  }

  private viewOf(id: string): PollView | null {
    const poll = this.book.polls.get(id);
    if (!poll) return null;
    const self = this.hooks.selfId;
    const counted = tally(poll);
    return {
      id: poll.id,
      question: poll.question,
      options: poll.options,
      multiple: poll.multiple,
      creatorName: poll.creator === self ? null : (this.names.get(poll.id) ?? ''),
      mine: poll.creator === self,
      closed: poll.closed,
      tally: counted,
      ours: poll.ballots.get(self)?.choices ?? null,
      disagrees: Boolean(poll.creatorCounts && poll.creatorCounts.some((count, index) => count !== counted.counts[index])),
    };
  }

  private publish() {
    this.views = [...this.book.polls.values()].sort((a, b) => b.order - a.order).map((poll) => this.viewOf(poll.id)!);
    for (const listener of this.listeners) listener();
  }
}
