// Polls in the call (docs/meetings.md "Polls"): anyone (or only the host, if the host says so)
// launches one, everyone votes and sees the tally grow, the creator closes it. An anonymous poll's
// ballots go to its relay, which passes them on under tokens (poll-book.ts). Loaded only when someone opens "Polls" or a poll message
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
  /** To every peer of peers(), sealed once through the SFU for those who hear us there (call/features.ts broadcast). */
  sendToAll(message: PollMessage): void;
  /** The roster's host (call/features.ts): its poll rule is obeyed, it is never an anonymous poll's relay. */
  isHost(peerId: string): boolean;
  selfIsHost(): boolean;
}

/** 16 random bytes, base64url: an anonymous ballot's token (poll-messages.ts TOKEN). */
const newToken = () =>
  `anon-${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')}`;

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
  anonymous: boolean;
}

/** 'not-allowed': the host keeps polls to itself; 'no-relay': an anonymous poll needs someone who is neither us nor the host. */
export type LaunchResult = 'launched' | 'invalid' | 'not-allowed' | 'no-relay';

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
  /** Our own choices in anonymous polls (our ballot comes back under a token we cannot tell apart). */
  private readonly anonOurs = new Map<string, number[]>();
  /** As a relay only: `${voter} ${pollId}` → the token we gave that voter's ballot (a new ballot replaces it, never adds one). */
  private readonly relayed = new Map<string, string>();

  constructor(private readonly hooks: PollsHooks) {
    this.book = new PollBook(hooks.selfId, hooks.isHost);
  }

  /** Whether this page may launch a poll now (the host's setting). */
  canLaunch() {
    return !this.book.hostOnly || this.hooks.selfIsHost();
  }

  selfIsHost() {
    return this.hooks.selfIsHost();
  }

  get hostOnly() {
    return this.book.hostOnly;
  }

  /** The host's setting, to every page; false when we are not the host. */
  setHostOnly(hostOnly: boolean): boolean {
    if (!this.hooks.selfIsHost()) return false;
    const message: PollMessage = { t: 'poll-rule', id: 'rule', hostOnly };
    this.book.apply(this.hooks.selfId, message);
    this.broadcast(message);
    this.publish();
    return true;
  }

  /** What this page holds of each poll's ballots: the keys (voters, or tokens for anonymous polls) and how many ballots it relayed. For the probe. */
  inspect() {
    return { keys: Object.fromEntries([...this.book.polls.values()].map((poll) => [poll.id, [...poll.ballots.keys()]])), relayed: this.relayed.size };
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

  launch(question: string, options: string[], multiple: boolean, anonymous = false): LaunchResult {
    const text = parsePollText(question, options);
    if (!text) return 'invalid';
    if (!this.canLaunch()) return 'not-allowed';
    // The relay, at random among those who are neither us nor the host.
    const candidates = this.hooks.peers().filter((peer) => !this.hooks.isHost(peer.id));
    const relay = candidates[crypto.getRandomValues(new Uint32Array(1))[0]! % Math.max(1, candidates.length)];
    if (anonymous && !relay) return 'no-relay';
    const anon = anonymous ? { anon: true as const, relay: relay!.id } : {};
    const message: PollMessage = { t: 'poll-open', id: crypto.randomUUID(), ...text, multiple, ...anon };
    this.book.apply(this.hooks.selfId, message);
    this.broadcast(message);
    this.publish();
    return 'launched';
  }

  vote(id: string, choices: number[]): boolean {
    const poll = this.book.polls.get(id);
    const checked = poll && parseChoices(choices, poll.options.length, poll.multiple);
    if (checked && poll.anon && !poll.closed) {
      // To the relay alone (or, if we are it, passed on from here): no one else hears it from us.
      const sent =
        poll.relay === this.hooks.selfId ? this.relay(this.hooks.selfId, id, checked) : this.hooks.send(poll.relay!, { t: 'poll-cast', id, choices: checked });
      if (sent) this.anonOurs.set(id, checked);
      this.publish();
      return sent;
    }
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

  /** As the poll's relay: a voter's ballot goes to everyone (us too) under the voter's one token. */
  private relay(voter: string, id: string, choices: number[]): boolean {
    const key = `${voter} ${id}`;
    const token = this.relayed.get(key) ?? newToken();
    const message: PollMessage = { t: 'poll-avote', id, token, choices };
    if (this.book.apply(this.hooks.selfId, message) !== 'ok') return false;
    this.relayed.set(key, token);
    this.broadcast(message);
    return true;
  }

  /** A `poll-*` message over the pair's sealed channel from `peerId` (the call verified who that is). */
  receive(peerId: string, raw: unknown) {
    const message = parsePollMessage(raw);
    if (message?.t === 'poll-cast') {
      if (this.book.apply(peerId, message) !== 'ok' || !this.relay(peerId, message.id, message.choices)) this.dropped += 1;
      else this.publish();
      return;
    }
    // A relay adds no more tokens than there are people in the call.
    const poll = message?.t === 'poll-avote' ? this.book.polls.get(message.id) : undefined;
    if (message?.t === 'poll-avote' && poll && !poll.ballots.has(message.token) && poll.ballots.size > this.hooks.peers().length) {
      this.dropped += 1;
      return;
    }
    const known = message ? this.book.polls.has(message.id) : true;
    const verdict = message ? this.book.apply(peerId, message) : 'invalid';
    if (verdict !== 'ok') {
      if (verdict !== 'pending') this.dropped += 1;
      return;
    }
    if (message!.t === 'poll-rule') return this.publish();
    if (message!.t === 'poll-open' && !known) this.names.set(message!.id, this.hooks.peers().find((peer) => peer.id === peerId)?.name ?? '');
    if (!known) this.notice = this.viewOf(message!.id);
    this.publish();
  }

  /** Someone's main channel opened: they hear of our open polls (with their ballots) and our ballots. */
  channelOpen(peerId: string) {
    if (this.hooks.selfIsHost() && this.book.hostOnly) this.hooks.send(peerId, { t: 'poll-rule', id: 'rule', hostOnly: true });
    for (const message of this.book.introduction(SNAPSHOT_BALLOTS_MAX)) this.hooks.send(peerId, message);
  }

  peerGone(peerId: string) {
    if (this.book.peerGone(peerId)) this.publish();
  }

  private broadcast(message: PollMessage) {
    this.hooks.sendToAll(message);
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
      ours: poll.anon ? (this.anonOurs.get(poll.id) ?? null) : (poll.ballots.get(self)?.choices ?? null),
      anonymous: poll.anon,
      disagrees: Boolean(poll.creatorCounts && poll.creatorCounts.some((count, index) => count !== counted.counts[index])),
    };
  }

  private publish() {
    this.views = [...this.book.polls.values()].sort((a, b) => b.order - a.order).map((poll) => this.viewOf(poll.id)!);
    for (const listener of this.listeners) listener();
  }
}
