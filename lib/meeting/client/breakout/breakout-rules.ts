// Breakout rooms' rules (docs/meetings.md "Breakout rooms"), plain data in and out: what a
// control message must look like to be heard, who may send which, how the host's assignment
// splits the call and whom each participant stops sending to. The feature (breakout-feature.ts)
// runs them; tests/unit/meeting-breakout-rules.test.ts tables them.

export const MIN_ROOMS = 2;
export const MAX_ROOMS = 10;
/** More than a mesh call ever holds (call/route-pin.ts): a bigger assignment is hostile. */
export const MAX_ASSIGNED = 100;
export const MAX_TEXT = 500;
export const MAX_COUNTDOWN_SECONDS = 120;
/** The main room: the host, late joiners and anyone the host left unassigned. */
export const MAIN = -1;

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export type BreakoutMessage =
  | { t: 'breakout-open'; round: number; count: number; rooms: Record<string, number> }
  | { t: 'breakout-close'; round: number; seconds: number }
  | { t: 'breakout-say'; round: number; text: string }
  | { t: 'breakout-help'; round: number }
  /** The host joins a room (`room`) or goes back to the main room (MAIN). */
  | { t: 'breakout-visit'; round: number; room: number };

const isInt = (value: unknown, min: number, max: number): value is number => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
const plain = (raw: unknown): raw is Record<string, unknown> => typeof raw === 'object' && raw !== null && !Array.isArray(raw);

/** A peer's `breakout-*` message as it arrived, or null: anything off in shape, range or size is dropped. */
export function parseBreakoutMessage(raw: unknown): BreakoutMessage | null {
  if (!plain(raw) || !isInt(raw.round, 1, 1_000_000)) return null;
  const round = raw.round;
  switch (raw.t) {
    case 'breakout-open': {
      if (!isInt(raw.count, MIN_ROOMS, MAX_ROOMS) || !plain(raw.rooms)) return null;
      const entries = Object.entries(raw.rooms);
      if (entries.length > MAX_ASSIGNED) return null;
      const count = raw.count;
      if (!entries.every(([id, room]) => ID.test(id) && isInt(room, 0, count - 1))) return null;
      return { t: 'breakout-open', round, count, rooms: Object.fromEntries(entries) as Record<string, number> };
    }
    case 'breakout-close':
      return isInt(raw.seconds, 0, MAX_COUNTDOWN_SECONDS) ? { t: 'breakout-close', round, seconds: raw.seconds } : null;
    case 'breakout-say': {
      const text = typeof raw.text === 'string' ? raw.text.trim() : '';
      return text.length > 0 && text.length <= MAX_TEXT ? { t: 'breakout-say', round, text } : null;
    }
    case 'breakout-help':
      return { t: 'breakout-help', round };
    case 'breakout-visit':
      return isInt(raw.room, MAIN, MAX_ROOMS - 1) ? { t: 'breakout-visit', round, room: raw.room } : null;
    default:
      return null;
  }
}

/** Everyone in `ids`, in their order, dealt round the rooms: sizes differ by one at most. */
export function splitEvenly(ids: readonly string[], count: number): Record<string, number> {
  return Object.fromEntries(ids.map((id, at) => [id, at % count]));
}

/** A fair shuffle (Fisher–Yates), for "split at random"; `random` is Math.random on the page. */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const out = [...items];
  for (let at = out.length - 1; at > 0; at--) {
    const other = Math.floor(random() * (at + 1));
    [out[at], out[other]] = [out[other]!, out[at]!];
  }
  return out;
}

export interface Rooms {
  round: number;
  count: number;
  rooms: Record<string, number>;
  /** Who opened them: their leaving closes them. */
  host: string;
  /** The room the host visits now (its key epoch: docs/e2ee-crypto.md "Breakout key epochs"); absent while in the main room. */
  visiting?: number;
}

export interface BreakoutState {
  /** The newest round heard: an older round's message is stale. */
  round: number;
  open: Rooms | null;
  /** When the host's countdown brings everyone back (ms since the epoch). */
  closingAt: number | null;
  /** The host's last message to all rooms. */
  said: { text: string; at: number } | null;
  /** For the host: who asked for help, newest last. */
  help: { peerId: string; room: number; at: number }[];
}

export const initialBreakout: BreakoutState = { round: 0, open: null, closingAt: null, said: null, help: [] };

export function roomOf(open: Rooms | null, id: string): number {
  if (!open) return MAIN;
  if (id === open.host && open.visiting !== undefined) return open.visiting;
  return open.rooms[id] ?? MAIN;
}

/** Whether we and this peer are in different rooms: then neither media nor chat goes between us. */
export function apart(open: Rooms | null, selfId: string, peerId: string): boolean {
  return roomOf(open, selfId) !== roomOf(open, peerId);
}

export interface Facts {
  selfId: string;
  /** The server's word (the roster): whether the sender is the room's host. */
  fromHost: boolean;
  selfIsHost: boolean;
  now: number;
}

/**
 * A message heard (or, for the host, one of its own actions with from = selfId): the next state.
 * Only the host opens, closes and speaks to the rooms; only the host hears a call for help, and
 * only from someone in a room of the round under way. The rest leaves the state as it was.
 */
export function reduceBreakout(state: BreakoutState, message: BreakoutMessage, from: string, facts: Facts): BreakoutState {
  if (message.t === 'breakout-help') {
    if (!facts.selfIsHost || !state.open || message.round !== state.open.round) return state;
    const room = roomOf(state.open, from);
    if (room === MAIN) return state;
    return { ...state, help: [...state.help.filter((ask) => ask.peerId !== from), { peerId: from, room, at: facts.now }] };
  }
  if (!facts.fromHost) return state;
  switch (message.t) {
    case 'breakout-open':
      if (message.round <= state.round) return state;
      return {
        round: message.round,
        open: { round: message.round, count: message.count, rooms: message.rooms, host: from },
        closingAt: null,
        said: null,
        help: [],
      };
    case 'breakout-close':
      if (!state.open || message.round !== state.open.round) return state;
      if (message.seconds === 0) return { ...state, open: null, closingAt: null, help: [] };
      return { ...state, closingAt: facts.now + message.seconds * 1000 };
    case 'breakout-say':
      if (!state.open || message.round !== state.open.round) return state;
      return { ...state, said: { text: message.text, at: facts.now } };
    case 'breakout-visit': {
      const open = state.open;
      if (!open || message.round !== open.round || from !== open.host || message.room >= open.count) return state;
      if ((open.visiting ?? MAIN) === message.room) return state;
      const next: Rooms = { ...open };
      if (message.room === MAIN) delete next.visiting;
      else next.visiting = message.room;
      return { ...state, open: next };
    }
  }
}

/** The countdown ran out, or the host who opened the rooms left: everyone is back in the main room. */
export function backToMain(state: BreakoutState): BreakoutState {
  return state.open ? { ...state, open: null, closingAt: null, help: [] } : state;
}
