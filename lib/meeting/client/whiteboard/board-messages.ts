// What travels between peers for the whiteboard (docs/meetings.md "Whiteboard"), and the check of
// everything that comes in: a peer is not trusted to send well-formed data, so a message that is
// too long, out of range, in a colour outside the palette or about someone else's live stroke is
// dropped whole — it never reaches the board, never throws.
import { LIMITS, PALETTE, SCALE, SHAPES, TEXT_SIZES, WIDTHS, type BoardOp, type Shape, type Stroke } from './board-model';

export type WhiteboardMessage =
  /** Points `at` onwards of the sender's own stroke while it is drawn. */
  | { t: 'wb-seg'; n: number; c: number; w: number; at: number; p: number[] }
  /** The sender's own stroke, whole, once drawn: what a lost segment is made good by; or a shape or text (`k`), sent whole once. */
  | { t: 'wb-end'; n: number; c: number; w: number; p: number[]; k?: Shape; s?: string }
  | { t: 'wb-del'; ids: string[] }
  | { t: 'wb-clear'; upTo: Record<string, number> }
  /** Part of the board for a late joiner: complete strokes by anyone, removals, clears. */
  | { t: 'wb-snap'; s: Stroke[]; d: string[]; upTo: Record<string, number> };

/** Per snapshot message: the main channel takes at most 96 KiB sealed (links/peer.ts). */
export const SNAPSHOT_LIMITS = { strokes: 400, removed: 800, chars: 48_000 } as const;

const AUTHOR = /^[\w-]{1,64}$/;
const ID = /^[\w-]{1,64}#\d{1,16}$/;

const isObject = (raw: unknown): raw is Record<string, unknown> => typeof raw === 'object' && raw !== null && !Array.isArray(raw);
const isIndex = (value: unknown, length: number): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;
const isCounter = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Flat [x, y, …] pairs, each an integer 0..SCALE, at most `max` points. */
function isPoints(value: unknown, max: number, min = 1): value is number[] {
  if (!Array.isArray(value) || value.length % 2 !== 0 || value.length < min * 2 || value.length > max * 2) return false;
  for (const v of value) if (!Number.isInteger(v) || v < 0 || v > SCALE) return false;
  return true;
}

/** Control, format and separator characters: a text shows only what can be seen (no bidi overrides). */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/** A text element's text: 1..LIMITS.textChars visible characters, unchanged (a peer's text is refused, never rewritten). */
export const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.trim().length > 0 && !INVISIBLE.test(value) && Array.from(value).length <= LIMITS.textChars;

function stroke(a: unknown, raw: Record<string, unknown>, maxPoints: number): Stroke | null {
  if (typeof a !== 'string' || !AUTHOR.test(a) || !isCounter(raw.n) || !isIndex(raw.c, PALETTE.length)) return null;
  if (raw.k === undefined) {
    if (!isIndex(raw.w, WIDTHS.length) || !isPoints(raw.p, maxPoints) || raw.s !== undefined) return null;
    return { a, n: raw.n, c: raw.c, w: raw.w, p: raw.p };
  }
  // A shape spans exactly two points, a text sits at one with its text; nothing else is taken.
  const k = SHAPES.find((shape) => shape === raw.k);
  if (!k) return null;
  if (k === 'text') {
    if (!isIndex(raw.w, TEXT_SIZES.length) || !isPoints(raw.p, 1) || !isText(raw.s)) return null;
    return { a, n: raw.n, c: raw.c, w: raw.w, p: raw.p, k, s: raw.s };
  }
  if (!isIndex(raw.w, WIDTHS.length) || !isPoints(raw.p, 2, 2) || raw.s !== undefined) return null;
  return { a, n: raw.n, c: raw.c, w: raw.w, p: raw.p, k };
}

function ids(value: unknown, max: number): string[] | null {
  if (!Array.isArray(value) || value.length > max) return null;
  return value.every((id) => typeof id === 'string' && ID.test(id)) ? (value as string[]) : null;
}

function upTo(value: unknown): Record<string, number> | null {
  if (!isObject(value)) return null;
  const entries = Object.entries(value);
  if (entries.length > LIMITS.clearAuthors || !entries.every(([author, n]) => AUTHOR.test(author) && isCounter(n))) return null;
  return Object.fromEntries(entries) as Record<string, number>;
}

/** A message from `from`, as board operations; null when anything in it is wrong. */
export function parseWhiteboardMessage(from: string, raw: unknown): BoardOp[] | null {
  if (!isObject(raw)) return null;
  switch (raw.t) {
    case 'wb-seg': {
      // A segment starts at a whole point inside the stroke and stays within its length.
      if (!isCounter(raw.at) || raw.at >= LIMITS.pointsPerStroke || raw.k !== undefined) return null;
      const made = stroke(from, raw, LIMITS.pointsPerStroke - raw.at);
      return made ? [{ kind: 'segment', stroke: made, at: raw.at }] : null;
    }
    case 'wb-end': {
      const made = stroke(from, raw, LIMITS.pointsPerStroke);
      return made ? [{ kind: 'stroke', stroke: made }] : null;
    }
    case 'wb-del': {
      const list = ids(raw.ids, LIMITS.idsPerRemoval);
      return list && list.length ? [{ kind: 'remove', ids: list }] : null;
    }
    case 'wb-clear': {
      const until = upTo(raw.upTo);
      return until ? [{ kind: 'clear', upTo: until }] : null;
    }
    case 'wb-snap': {
      const until = upTo(raw.upTo);
      const removed = ids(raw.d, SNAPSHOT_LIMITS.removed);
      if (!until || !removed || !Array.isArray(raw.s) || raw.s.length > SNAPSHOT_LIMITS.strokes) return null;
      const strokes: Stroke[] = [];
      for (const item of raw.s) {
        const made = isObject(item) ? stroke(item.a, item, LIMITS.pointsPerStroke) : null;
        if (!made) return null;
        strokes.push(made);
      }
      // Clears and removals first: a stroke they cover is not added and dropped again.
      return [{ kind: 'clear', upTo: until }, { kind: 'remove', ids: removed }, ...strokes.map((s) => ({ kind: 'stroke' as const, stroke: s }))];
    }
    default:
      return null;
  }
}

/**
 * The board cut into snapshot messages, each within SNAPSHOT_LIMITS: every message stands on its
 * own (strokes are whole), so they need no reassembly and may arrive in any order.
 */
export function snapshotMessages(state: { strokes: Stroke[]; removed: string[]; cleared: Record<string, number> }): WhiteboardMessage[] {
  const messages: WhiteboardMessage[] = [];
  let strokes: Stroke[] = [];
  let chars = 0;
  const flush = () => {
    if (strokes.length) messages.push({ t: 'wb-snap', s: strokes, d: [], upTo: {} });
    strokes = [];
    chars = 0;
  };
  for (const s of state.strokes) {
    const size = JSON.stringify(s).length;
    if (strokes.length >= SNAPSHOT_LIMITS.strokes || chars + size > SNAPSHOT_LIMITS.chars) flush();
    strokes.push(s);
    chars += size;
  }
  flush();
  // The removals and clears first, in messages of their own (800 ids of at most 82 characters: under 70 KB).
  const head: WhiteboardMessage[] = [];
  for (let at = 0; at < state.removed.length || at === 0; at += SNAPSHOT_LIMITS.removed) {
    head.push({ t: 'wb-snap', s: [], d: state.removed.slice(at, at + SNAPSHOT_LIMITS.removed), upTo: at === 0 ? state.cleared : {} });
  }
  return [...head, ...messages];
}
