// The key exchange's decisions (docs/e2ee-crypto.md "Who gets S"), without crypto, timers or the network:
// who is handed the key and when, when we ask for it again, when we make it ourselves, and what
// each checked message leads to. KeyExchange (key-exchange.ts) reads the facts, runs the effects
// this gives back in order, and feeds in what the crypto answered. Plain data in and out.
import type { Envelope, SignalBody } from './envelope';
import type { EncryptionState, PeerKeyState } from './key-state';

type Announcement = Extract<Envelope, { k: 'hello' }>['announcement'];
type Handoff = Omit<Extract<Envelope, { k: 'handoff' }>, 'k'>;
type Signed = Extract<Envelope, { k: 'signed' }>['signal'];
type Request = readonly [from: string, key: string];

export interface ExchangeState {
  readonly selfId: string;
  /** POST /join carried our handoff key: everyone in the first welcome has it already. */
  readonly requestPosted: boolean;
  /** Participants this browser's host let in from the lobby: the only ones it hands the key to in a gated meeting. */
  readonly letInHere: readonly string[];
  /** Newcomers we handed S to, with our announcement. */
  readonly handedOffTo: readonly string[];
  /** Those who handed S to us (whether or not we still needed it): each of them offers to us. */
  readonly handedOffBy: readonly string[];
  /** Handoff requests that came while we had no S, in arrival order: answered when we get it. */
  readonly unanswered: readonly Request[];
  /**
   * Those already here when we entered with the link's S, until one of them verifies it: the
   * meeting's key is theirs, so the first of them to refuse ours shows our link out of date
   * (restarted another day, or rekeyed after a removal) and we ask for the key instead (issue 48).
   */
  readonly linkOnTrial: readonly string[];
}

/** The world when an input comes, read by the shell from the session and this page's keys. */
export interface Facts {
  /** We hold the meeting's secret S. */
  readonly hasSecret: boolean;
  readonly source: EncryptionState['source'];
  readonly selfIsHost: boolean;
  /** The room makes newcomers wait in the lobby, or the host locked the meeting. */
  readonly gated: boolean;
  /** The peers the server announced, with their key state and host flag. */
  readonly peers: readonly { readonly id: string; readonly isHost: boolean; readonly keys: PeerKeyState }[];
  readonly encryption: EncryptionState;
}

/** How a signed signal came out of its check (the signature, then the DTLS fingerprint in it). */
export type SignalCheck = { ok: false; reason: 'signature' | 'other' } | { ok: true; body: SignalBody | null; fingerprintMatches: boolean };

export type ExchangeInput =
  /** After the welcome (or when we must make S after all), with the others present. */
  | { type: 'enter'; others: readonly string[] }
  /** The host let this participant in from the lobby, or took it back. */
  | { type: 'let-in'; id: string; confirmed: boolean }
  /** A peer left; `keysReady`: this page's keys are made. */
  | { type: 'peer-left'; id: string; keysReady: boolean }
  | { type: 'hello'; from: string; announcement: Announcement; reply: boolean }
  /** Its announcement checked under our room secret. */
  | { type: 'announcement-checked'; from: string; reply: boolean; result: 'ok' | 'mismatch' }
  /** `canAnswer`: our keys could seal S to this key. */
  | { type: 'handoff-request'; from: string; key: string; canAnswer: boolean }
  | { type: 'handoff'; from: string; handoff: Handoff }
  /** A handoff opened: we hold S now. */
  | { type: 'key-received' }
  | { type: 'signed'; from: string; signal: Signed }
  | { type: 'signal-checked'; from: string; check: SignalCheck }
  /** Some peer's key state changed: is every one of them a mismatch? */
  | { type: 'check-wrong-key' }
  /** Everyone here asked us for S: does anyone hold it? */
  | { type: 'check-nobody-holds' };

export type ExchangeEffect =
  | { type: 'make-secret' }
  /** Re-enter with these others (after making S, or to make it when nobody holds it). */
  | { type: 'enter'; others: readonly string[] }
  /** The indicator says "on", with the source and epoch the keys hold now. */
  | { type: 'encryption-on' }
  | { type: 'encryption'; patch: Partial<EncryptionState> }
  | { type: 'announce'; to: string; reply: boolean; lazy: boolean }
  /** Every peer present when this runs gets our announcement, then what it sent meanwhile is released. */
  | { type: 'announce-to-all' }
  /** A fresh handoff request, sent to each of these (none: the join carried it). */
  | { type: 'ask-for-key'; to: readonly string[] }
  /** Requests that waited for S: each is decided again, if its sender is still here. */
  | { type: 'answer-waiting'; requests: readonly Request[] }
  /** Our link's S is out of date: forget it (and what it made), so that a handoff can bring the meeting's. */
  | { type: 'drop-secret' }
  /** Seal S to this key and send it with our announcement, ahead of our offer. */
  | { type: 'hand-key'; to: string; key: string }
  /** We handed S to this newcomer: we offer now. */
  | { type: 'handed-off'; to: string }
  | { type: 'check-announcement'; from: string; announcement: Announcement; reply: boolean }
  | { type: 'open-handoff'; from: string; handoff: Handoff }
  | { type: 'open-signal'; from: string; signal: Signed }
  | { type: 'peer-keys'; id: string; keys: PeerKeyState }
  /** Its announcement verified: connections may be made. `theyHandedOff`: they gave us S, so they offer. */
  | { type: 'verified'; id: string; theyHandedOff: boolean }
  /** What this peer sent before it could be checked, now that it can. */
  | { type: 'release'; id: string }
  /** Someone changed what this peer sent on the way: no connection to it. */
  | { type: 'tampered'; id: string }
  | { type: 'signal'; from: string; body: SignalBody }
  /** Decide `check-wrong-key` / `check-nobody-holds` with the facts of when this runs. */
  | { type: 'recheck'; input: 'check-wrong-key' | 'check-nobody-holds' };

export interface Decision {
  state: ExchangeState;
  effects: ExchangeEffect[];
}

export function initialExchange(selfId: string, requestPosted = false): ExchangeState {
  return { selfId, requestPosted, letInHere: [], handedOffTo: [], handedOffBy: [], unanswered: [], linkOnTrial: [] };
}

/**
 * An envelope that cannot be checked yet waits: from someone the server has not announced, an
 * announcement before we hold S, a signed message before its sender's announcement verified.
 */
export function mustHold(kind: Envelope['k'], known: { peer: boolean; hasSecret: boolean; verified: boolean }): boolean {
  return !known.peer || (kind === 'hello' && !known.hasSecret) || (kind === 'signed' && !known.verified);
}

/** The SDP a signal carries, whose DTLS fingerprint must be the one its sender announced. */
export function describedSdp(body: SignalBody): string | null {
  return 'description' in body && body.description.sdp ? body.description.sdp : null;
}

const added = (list: readonly string[], id: string) => (list.includes(id) ? list : [...list, id]);
const without = (list: readonly string[], id: string) => (list.includes(id) ? list.filter((x) => x !== id) : list);

export function decide(state: ExchangeState, input: ExchangeInput, facts: Facts): Decision {
  const keep = (effects: ExchangeEffect[] = []): Decision => ({ state, effects });
  switch (input.type) {
    case 'enter':
      return enter(state, input.others, facts);
    case 'let-in':
      return { state: { ...state, letInHere: input.confirmed ? added(state.letInHere, input.id) : without(state.letInHere, input.id) }, effects: [] };
    case 'peer-left': {
      const next = {
        ...state,
        unanswered: state.unanswered.filter(([from]) => from !== input.id),
        handedOffTo: without(state.handedOffTo, input.id),
        handedOffBy: without(state.handedOffBy, input.id),
        linkOnTrial: without(state.linkOnTrial, input.id),
      };
      return { state: next, effects: input.keysReady ? stillWaiting(facts) : [] };
    }
    case 'hello':
      if (input.announcement.id !== input.from) return keep();
      return keep([{ type: 'check-announcement', from: input.from, announcement: input.announcement, reply: input.reply }]);
    case 'announcement-checked':
      if (input.result === 'mismatch' && state.linkOnTrial.includes(input.from)) return staleLink(state, facts);
      return { state: input.result === 'ok' ? { ...state, linkOnTrial: [] } : state, effects: announcementChecked(state, input) };
    case 'handoff-request':
      return handoffRequest(state, input, facts);
    case 'handoff': {
      // Whoever hands us S offers to us next (machine.ts), even if we already have S.
      const next = { ...state, handedOffBy: added(state.handedOffBy, input.from) };
      return { state: next, effects: facts.hasSecret ? [] : [{ type: 'open-handoff', from: input.from, handoff: input.handoff }] };
    }
    case 'key-received':
      // Our announcement goes up at once, alone: the holder verifies it (and derives our frame
      // keys) while we answer its offer, instead of after our answer came (issue 17, traced:
      // 5–40 ms of the holder's way from our answer to its first frame).
      return {
        state: { ...state, unanswered: [] },
        effects: [{ type: 'encryption-on' }, { type: 'answer-waiting', requests: state.unanswered }, { type: 'announce-to-all' }],
      };
    case 'signed': {
      const peer = facts.peers.find((p) => p.id === input.from);
      if (input.signal.from !== input.from || peer?.keys === 'tampered') return keep();
      return keep([{ type: 'open-signal', from: input.from, signal: input.signal }]);
    }
    case 'signal-checked':
      return keep(signalChecked(input.from, input.check));
    case 'check-wrong-key':
      return keep(wrongKey(facts));
    case 'check-nobody-holds':
      return keep(nobodyHolds(state, facts) ? [{ type: 'enter', others: [] }] : []);
  }
}

/** Alone and without a key, we make it; with a key we announce ourselves; else we ask for it. */
function enter(state: ExchangeState, others: readonly string[], facts: Facts): Decision {
  if (!facts.hasSecret && others.length === 0) return { state, effects: [{ type: 'make-secret' }, { type: 'enter', others }] };
  if (facts.hasSecret) {
    const effects: ExchangeEffect[] = [{ type: 'encryption-on' }];
    for (const id of others) effects.push({ type: 'announce', to: id, reply: false, lazy: false });
    effects.push({ type: 'answer-waiting', requests: state.unanswered });
    // Only the first entry puts the link on trial: a re-entry (a reconnect) already ran on it.
    const linkOnTrial = facts.source === 'link' && facts.encryption.status === 'starting' ? others : [];
    return { state: { ...state, unanswered: [], linkOnTrial }, effects };
  }
  // The first time, the server's `join` event brought our key to everyone present (issue 17).
  return {
    state: { ...state, requestPosted: false },
    effects: [
      { type: 'encryption', patch: { status: 'waiting-key', source: null, epoch: 0 } },
      { type: 'ask-for-key', to: state.requestPosted ? [] : others },
    ],
  };
}

/**
 * Someone who was here before us refused our link's S: the meeting runs on another key (the room
 * was started again without this link, or the host rekeyed after a removal). Never a broken call:
 * we drop it and ask everyone for the current one, exactly as a link without a key does, so the
 * room's gate (ask to join, lock) applies as it does to them. The indicator then says where the
 * key came from ("compare safety codes"), and `staleLink` tells the person why.
 */
function staleLink(state: ExchangeState, facts: Facts): Decision {
  const others = facts.peers.map((peer) => peer.id);
  const effects: ExchangeEffect[] = [
    { type: 'drop-secret' },
    // Refused under the old key only: each announces again, checked under the key the handoff brings.
    ...facts.peers.filter((peer) => peer.keys === 'mismatch').map((peer): ExchangeEffect => ({ type: 'peer-keys', id: peer.id, keys: 'pending' })),
    { type: 'encryption', patch: { status: 'waiting-key', source: null, epoch: 0, staleLink: true } },
    { type: 'ask-for-key', to: others },
  ];
  return { state: { ...state, linkOnTrial: [], requestPosted: false }, effects };
}

/**
 * Someone left while we wait for S. Alone, we are the first now and make it. Otherwise we ask
 * those left again: a participant who joined after our request went out never got it, and may
 * be waiting for S as well (issue 17: two people could wait for each other forever).
 */
function stillWaiting(facts: Facts): ExchangeEffect[] {
  if (facts.hasSecret || facts.encryption.status !== 'waiting-key') return [];
  if (facts.peers.length === 0) return [{ type: 'enter', others: [] }];
  return [
    { type: 'ask-for-key', to: facts.peers.map((peer) => peer.id) },
    { type: 'recheck', input: 'check-nobody-holds' },
  ];
}

/**
 * Everyone here asked us for S while we wait for it: nobody here holds it. The smallest id
 * makes it, as the first participant does, and hands it to the others.
 */
function nobodyHolds(state: ExchangeState, facts: Facts): boolean {
  if (facts.hasSecret || facts.encryption.status !== 'waiting-key') return false;
  const others = facts.peers;
  if (others.length === 0 || !others.every((peer) => state.unanswered.some(([from]) => from === peer.id))) return false;
  return !others.some((peer) => peer.id < state.selfId);
}

function announcementChecked(state: ExchangeState, input: Extract<ExchangeInput, { type: 'announcement-checked' }>): ExchangeEffect[] {
  const { from } = input;
  const effects: ExchangeEffect[] = [];
  // Answered even on a mismatch, so a newcomer with the wrong key learns it at once. The answer
  // waits for our description when one follows at once — we offer, or a handoff between us means
  // one of us offers to the other — so the two go up in one POST (issue 17). After a handoff the
  // answer is redundant (ours went with the key), but it recovers a lost one.
  const handoff = state.handedOffTo.includes(from) || state.handedOffBy.includes(from);
  if (!input.reply) effects.push({ type: 'announce', to: from, reply: true, lazy: handoff || state.selfId < from });
  effects.push({ type: 'peer-keys', id: from, keys: input.result === 'ok' ? 'verified' : 'mismatch' });
  effects.push({ type: 'recheck', input: 'check-wrong-key' });
  if (input.result !== 'ok') return effects;
  effects.push({ type: 'verified', id: from, theyHandedOff: state.handedOffBy.includes(from) });
  effects.push({ type: 'release', id: from });
  return effects;
}

function handoffRequest(state: ExchangeState, input: Extract<ExchangeInput, { type: 'handoff-request' }>, facts: Facts): Decision {
  const { from } = input;
  const asker = facts.peers.find((p) => p.id === from);
  if (!asker) return { state, effects: [] };
  if (!facts.hasSecret) {
    // We wait for S too: answered once we have it (a second request replaces the first, in its place).
    const unanswered = state.unanswered.some(([id]) => id === from)
      ? state.unanswered.map((request): Request => (request[0] === from ? [from, input.key] : request))
      : [...state.unanswered, [from, input.key] as const];
    const next = { ...state, unanswered };
    return { state: next, effects: nobodyHolds(next, facts) ? [{ type: 'enter', others: [] }] : [] };
  }
  // Where newcomers wait in the lobby, the key goes only to those this host let in — not to
  // whoever the server says is in (it could let anyone in). The room's host coming back (a
  // reload) gets it too: nobody else could let people in.
  const letIn = facts.selfIsHost && state.letInHere.includes(from);
  if (facts.gated && !letIn && !asker.isHost) return { state, effects: [] };
  if (!input.canAnswer) return { state, effects: [] };
  return {
    state: { ...state, handedOffTo: added(state.handedOffTo, from) },
    effects: [
      { type: 'hand-key', to: from, key: input.key },
      { type: 'handed-off', to: from },
    ],
  };
}

function signalChecked(from: string, check: SignalCheck): ExchangeEffect[] {
  // A signature that does not verify means the relay changed the message: refuse the peer.
  if (!check.ok) return check.reason === 'signature' ? [{ type: 'tampered', id: from }] : [];
  if (!check.body) return [];
  // A relay that swaps the DTLS fingerprint would sit in the middle: refuse the connection.
  if (!check.fingerprintMatches) return [{ type: 'tampered', id: from }];
  return [{ type: 'signal', from, body: check.body }];
}

/**
 * Our key is not the meeting's when every participant's announcement fails under it. Not while
 * our link is on trial (its first refusal makes us ask for the key: staleLink), nor when we held
 * S before the others came: a lone holder whose newcomer brought an old link is not wrong — the
 * newcomer is, and asks for the key (issue 48: the host was told "wrong key" by a late guest).
 */
function wrongKey(facts: Facts): ExchangeEffect[] {
  const current = facts.encryption;
  const wrong = facts.source === 'handoff' && facts.peers.length > 0 && facts.peers.every((p) => p.keys === 'mismatch');
  const status = wrong ? 'wrong-key' : facts.hasSecret ? 'on' : current.status;
  return status === current.status ? [] : [{ type: 'encryption', patch: { status, source: facts.source } }];
}
