// The call's polls as one participant's page knows them, and the rules that decide what a message
// may change (docs/meetings.md "Polls"). Pure: no channels, no timers — polls.ts feeds it what
// the sealed channels deliver, with the sender the call verified (the pair's channel, never a
// field of the message), and every page that hears the same ballots counts the same tally (tally.ts).
//
// Who may say what: a poll is opened and closed only by its creator; a ballot counts only for the
// peer whose channel carried it, replacing that peer's earlier one until the poll closes. The one
// exception is a creator's snapshot for a late joiner: it carries the ballots the creator counted
// (so the votes of people who already left are not lost), and a ballot that came from its voter
// always wins over one relayed this way.
//
// Anonymous polls (docs/meetings.md "Polls"): ballots never travel under a voter. The voter sends
// them to the poll's relay (named by the creator: neither the creator nor the host), which passes
// each on under a token of its own making; a page counts an anonymous ballot only from the relay.
// A host setting (`poll-rule`, obeyed only from the roster's host) can keep new polls to the host.
import { parseChoices, SNAPSHOT_BALLOTS_MAX, type Choices, type PollMessage } from './poll-messages';

/** Polls one call keeps: a peer that opens more is ignored. */
export const POLLS_MAX = 50;
/** Ballots kept for polls not heard of yet (a voter's channel can open before the creator's). */
export const PENDING_MAX = 200;

export interface Ballot {
  choices: Choices;
  /** Came from the voter itself (not in a creator's snapshot). */
  direct: boolean;
}

export interface Poll {
  id: string;
  creator: string;
  question: string;
  options: string[];
  multiple: boolean;
  /** false while votes are taken; 'creator-left' until the creator comes back; 'relay-left': an anonymous poll's relay left (for good). */
  closed: false | 'closed' | 'creator-left' | 'relay-left';
  /** Anonymous: ballots are keyed by token and come only from `relay`. */
  anon: boolean;
  relay: string | null;
  ballots: Map<string, Ballot>;
  /** The tally the creator sent with its close. */
  creatorCounts: number[] | null;
  /** Heard of in this order (the screen shows the newest first). */
  order: number;
}

export type Verdict = 'ok' | 'pending' | 'unknown' | 'not-creator' | 'closed' | 'bad-choices' | 'too-many' | 'not-host' | 'not-relay' | 'anonymous';

export class PollBook {
  readonly polls = new Map<string, Poll>();
  /** Ballots for polls not heard of yet: `${voter} ${pollId}` → choices, the voter's latest. */
  private readonly pending = new Map<string, Choices>();
  private heard = 0;
  /** The host's setting: only the host launches polls (default: everyone). */
  hostOnly = false;

  /** `isHost`: the server's roster says this peer is the room's host (call/features.ts). */
  constructor(
    readonly selfId: string,
    private readonly isHost: (peerId: string) => boolean = () => false,
  ) {}

  /** A message from `from` (the verified sender), already parsed (poll-messages.ts). */
  apply(from: string, message: PollMessage): Verdict {
    switch (message.t) {
      case 'poll-open':
        return this.open(from, message);
      case 'poll-vote':
        return this.vote(from, message.id, message.choices);
      case 'poll-close':
        return this.close(from, message.id, message.counts);
      case 'poll-cast':
        return this.cast(message.id, message.choices);
      case 'poll-avote':
        return this.anonymous(from, message.id, message.token, message.choices);
      case 'poll-rule':
        if (!this.isHost(from)) return 'not-host';
        this.hostOnly = message.hostOnly;
        return 'ok';
    }
  }

  private open(from: string, message: Extract<PollMessage, { t: 'poll-open' }>): Verdict {
    let poll = this.polls.get(message.id);
    if (poll && poll.creator !== from) return 'not-creator';
    if (poll?.closed === 'closed') return 'closed';
    if (!poll) {
      if (this.polls.size >= POLLS_MAX) return 'too-many';
      if (this.hostOnly && !this.isHost(from)) return 'not-host';
      // The relay is the one who could tie a ballot to a voter: never the creator, never the host.
      if (message.relay !== undefined && (message.relay === from || this.isHost(message.relay))) return 'not-relay';
      const { id, question, options, multiple } = message;
      const anon = message.anon === true;
      poll = {
        ...{ id, creator: from, question, options, multiple, closed: false as const, ballots: new Map<string, Ballot>() },
        ...{ creatorCounts: null, order: this.heard++, anon, relay: message.relay ?? null },
      };
      this.polls.set(id, poll);
      for (const [key, choices] of this.pending) {
        const [voter, pollId] = key.split(' ');
        if (pollId !== id) continue;
        this.pending.delete(key);
        if (!anon && parseChoices(choices, options.length, multiple)) poll.ballots.set(voter!, { choices, direct: true });
      }
    }
    // The creator is back (a dropped connection looks like leaving): its poll is open again.
    if (poll.closed === 'creator-left') poll.closed = false;
    for (const { voter, choices } of message.ballots ?? []) {
      // Our own ballot we know; one that came from its voter is not overruled by a relay.
      if (voter === this.selfId || (poll.ballots.get(voter)?.direct && voter !== from)) continue;
      poll.ballots.set(voter, { choices, direct: voter === from });
    }
    return 'ok';
  }

  private vote(from: string, id: string, choices: Choices): Verdict {
    const poll = this.polls.get(id);
    if (!poll) {
      const key = `${from} ${id}`;
      if (!this.pending.has(key) && this.pending.size >= PENDING_MAX) return 'too-many';
      this.pending.set(key, choices);
      return 'pending';
    }
    if (poll.closed) return 'closed';
    if (poll.anon) return 'anonymous';
    if (!parseChoices(choices, poll.options.length, poll.multiple)) return 'bad-choices';
    poll.ballots.set(from, { choices, direct: true });
    return 'ok';
  }

  /** An anonymous ballot sent to us: fine to pass on only if we are the poll's relay and it is open. */
  private cast(id: string, choices: Choices): Verdict {
    const poll = this.polls.get(id);
    if (!poll) return 'unknown';
    if (!poll.anon || poll.relay !== this.selfId) return 'not-relay';
    if (poll.closed) return 'closed';
    return parseChoices(choices, poll.options.length, poll.multiple) ? 'ok' : 'bad-choices';
  }

  /** An anonymous ballot under its token: counted only from the poll's relay (a token's later ballot replaces it). */
  private anonymous(from: string, id: string, token: string, choices: Choices): Verdict {
    const poll = this.polls.get(id);
    if (!poll) return 'unknown';
    if (!poll.anon || poll.relay !== from) return 'not-relay';
    if (poll.closed) return 'closed';
    if (!parseChoices(choices, poll.options.length, poll.multiple)) return 'bad-choices';
    if (!poll.ballots.has(token) && poll.ballots.size >= SNAPSHOT_BALLOTS_MAX) return 'too-many';
    poll.ballots.set(token, { choices, direct: true });
    return 'ok';
  }

  private close(from: string, id: string, counts: number[]): Verdict {
    const poll = this.polls.get(id);
    if (!poll) return 'unknown';
    if (poll.creator !== from) return 'not-creator';
    if (poll.closed === 'closed') return 'closed';
    poll.closed = 'closed';
    poll.creatorCounts = counts.length === poll.options.length ? counts : null;
    return 'ok';
  }

  /** A peer left: its open polls stop taking votes (until it comes back); its ballots stay counted. */
  peerGone(peerId: string): boolean {
    let changed = false;
    for (const poll of this.polls.values()) {
      if (poll.creator === peerId && !poll.closed) {
        poll.closed = 'creator-left';
        changed = true;
      }
      // Without its relay an anonymous poll takes no more votes: no one else may learn who votes what.
      if (poll.anon && poll.relay === peerId && poll.closed !== 'closed') {
        poll.closed = 'relay-left';
        changed = true;
      }
    }
    for (const key of this.pending.keys()) if (key.startsWith(`${peerId} `)) this.pending.delete(key);
    return changed;
  }

  /** What we tell someone whose channel just opened: our open polls with their ballots, and our ballots in others' open polls. */
  introduction(ballotsMax: number): PollMessage[] {
    const messages: PollMessage[] = [];
    for (const poll of this.polls.values()) {
      if (poll.closed) continue;
      if (poll.creator === this.selfId) {
        const ballots = [...poll.ballots].slice(0, ballotsMax).map(([voter, { choices }]) => ({ voter, choices }));
        const anon = poll.anon ? { anon: true as const, relay: poll.relay! } : {};
        messages.push({ t: 'poll-open', id: poll.id, question: poll.question, options: poll.options, multiple: poll.multiple, ballots, ...anon });
      } else if (!poll.anon) {
        const own = poll.ballots.get(this.selfId);
        if (own) messages.push({ t: 'poll-vote', id: poll.id, choices: own.choices });
      }
    }
    return messages;
  }
}
