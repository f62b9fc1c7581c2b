// What participants say about polls, over each pair's sealed main channel (links/peer.ts): a poll
// opened (by its creator, or its creator's snapshot for someone who joined late), a ballot, a
// close. Each message is checked here before anything counts it: a peer is not trusted to send
// well-formed data, to respect the limits, or to speak for anyone but itself (poll-book.ts decides that).

export const QUESTION_MAX = 300;
export const OPTION_MAX = 100;
export const OPTIONS_MIN = 2;
export const OPTIONS_MAX = 10;
/** Ballots a creator's snapshot may carry: more than a mesh call holds (the SFU's rooms are larger, still under this). */
export const SNAPSHOT_BALLOTS_MAX = 300;

/** One participant's choices: option indexes, ascending, each once. */
export type Choices = number[];

export type PollMessage =
  /**
   * From the poll's creator: a new poll, or (with `ballots`) the poll as its creator counts it, for a late joiner.
   * An anonymous poll (`anon`) names its `relay`: the one peer its ballots go through (polls.ts), never the creator nor the host.
   */
  | {
      t: 'poll-open';
      id: string;
      question: string;
      options: string[];
      multiple: boolean;
      ballots?: { voter: string; choices: Choices }[];
      anon?: true;
      relay?: string;
    }
  /** From a voter: their choices, replacing any earlier ones. */
  | { t: 'poll-vote'; id: string; choices: Choices }
  /** From the poll's creator: no more votes; `counts` is the tally as the creator counted it. */
  | { t: 'poll-close'; id: string; counts: number[] }
  /** An anonymous poll's ballot, from its voter to the poll's relay only. */
  | { t: 'poll-cast'; id: string; choices: Choices }
  /** An anonymous poll's ballot as its relay passes it on to everyone: under a token, not a voter (one token per voter). */
  | { t: 'poll-avote'; id: string; token: string; choices: Choices }
  /** From the host: who may launch polls (only the roster's host is obeyed). */
  | { t: 'poll-rule'; id: 'rule'; hostOnly: boolean };

export const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** An anonymous ballot's token (polls.ts makes them: 'anon-' and 16 random bytes): never a peer's id. */
export const TOKEN = /^anon-[A-Za-z0-9_-]{16,43}$/;

/**
 * Taken out of every text: control and format characters (the bidi overrides that reorder what is
 * shown, zero-width ones), lone surrogates, line and paragraph separators. Spaces collapse.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/** A question or an option as shown: visible characters only, trimmed, at most `max` characters; "" when nothing is left or it is too long. */
export function cleanText(raw: unknown, max: number): string {
  if (typeof raw !== 'string' || raw.length > max * 4) return '';
  const text = raw.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  return Array.from(text).length <= max ? text : '';
}

/** Option indexes: whole numbers below `count`, each once, at least one, and only one unless `multiple`. Sorted; null if not. */
export function parseChoices(raw: unknown, count: number, multiple: boolean): Choices | null {
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > (multiple ? count : 1)) return null;
  if (!raw.every((index) => Number.isInteger(index) && index >= 0 && index < count)) return null;
  const choices = [...new Set(raw as number[])].sort((a, b) => a - b);
  return choices.length === raw.length ? choices : null;
}

/** The question and options of a poll as its creator wrote them, cleaned; null when they break a rule. */
export function parsePollText(question: unknown, options: unknown): { question: string; options: string[] } | null {
  const asked = cleanText(question, QUESTION_MAX);
  if (!asked || !Array.isArray(options) || options.length < OPTIONS_MIN || options.length > OPTIONS_MAX) return null;
  const cleaned = options.map((option) => cleanText(option, OPTION_MAX));
  return cleaned.every(Boolean) ? { question: asked, options: cleaned } : null;
}

function parseBallots(raw: unknown, count: number, multiple: boolean): { voter: string; choices: Choices }[] | null {
  if (!Array.isArray(raw) || raw.length > SNAPSHOT_BALLOTS_MAX) return null;
  const ballots: { voter: string; choices: Choices }[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    if (typeof entry !== 'object' || entry === null) return null;
    const { voter, choices } = entry as Record<string, unknown>;
    const parsed = parseChoices(choices, count, multiple);
    if (typeof voter !== 'string' || !ID.test(voter) || seen.has(voter) || !parsed) return null;
    seen.add(voter);
    ballots.push({ voter, choices: parsed });
  }
  return ballots;
}

/**
 * The message, checked, or null. A vote's indexes are checked against its poll where the poll is
 * known (poll-book.ts); here only that they are whole numbers, each once.
 */
export function parsePollMessage(raw: unknown): PollMessage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  if (m.t === 'poll-rule') return m.id === 'rule' && typeof m.hostOnly === 'boolean' ? { t: 'poll-rule', id: 'rule', hostOnly: m.hostOnly } : null;
  if (typeof m.id !== 'string' || !ID.test(m.id)) return null;
  switch (m.t) {
    case 'poll-open': {
      const text = parsePollText(m.question, m.options);
      if (!text || typeof m.multiple !== 'boolean') return null;
      // Anonymous: `anon: true` with a relay's id; otherwise neither.
      if (m.anon !== undefined && (m.anon !== true || typeof m.relay !== 'string' || !ID.test(m.relay))) return null;
      if (m.anon === undefined && m.relay !== undefined) return null;
      const anon = m.anon === true ? { anon: true as const, relay: m.relay as string } : {};
      if (m.ballots === undefined) return { t: 'poll-open', id: m.id, ...text, multiple: m.multiple, ...anon };
      const ballots = parseBallots(m.ballots, text.options.length, m.multiple);
      // An anonymous poll's snapshot carries tokens, never voters.
      if (ballots && m.anon === true && !ballots.every((ballot) => TOKEN.test(ballot.voter))) return null;
      return ballots ? { t: 'poll-open', id: m.id, ...text, multiple: m.multiple, ballots, ...anon } : null;
    }
    case 'poll-cast': {
      const choices = parseChoices(m.choices, OPTIONS_MAX, true);
      return choices ? { t: 'poll-cast', id: m.id, choices } : null;
    }
    case 'poll-avote': {
      const choices = parseChoices(m.choices, OPTIONS_MAX, true);
      return choices && typeof m.token === 'string' && TOKEN.test(m.token) ? { t: 'poll-avote', id: m.id, token: m.token, choices } : null;
    }
    case 'poll-vote': {
      const choices = parseChoices(m.choices, OPTIONS_MAX, true);
      return choices ? { t: 'poll-vote', id: m.id, choices } : null;
    }
    case 'poll-close': {
      const counts = m.counts;
      if (!Array.isArray(counts) || counts.length > OPTIONS_MAX || !counts.every((n) => Number.isSafeInteger(n) && n >= 0)) return null;
      return { t: 'poll-close', id: m.id, counts: counts as number[] };
    }
    default:
      return null;
  }
}
