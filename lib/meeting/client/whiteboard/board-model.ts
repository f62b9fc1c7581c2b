// The shared whiteboard's state (docs/meetings.md "Whiteboard"): a set of strokes, each named by
// its author's peer id and a counter, plus what was removed. Every operation is a set union —
// add a stroke, remove ids, clear up to a counter per author — so it can arrive twice, late or in
// any order, over any pair's channel, and every page still ends with the same board.

/** The pen's colours: a peer sends an index, never a colour of its own (nothing to inject). */
export const PALETTE = ['#0f172a', '#dc2626', '#2563eb', '#16a34a', '#f59e0b', '#9333ea'] as const;
/** Line widths, in thousandths of the board's width. */
export const WIDTHS = [2, 5, 12] as const;
/** Coordinates travel as integers 0..SCALE (fixed point): shorter than floats, easy to check. */
export const SCALE = 10_000;
/** The board's shape, width over height: the same on every screen, so a circle stays round. */
export const ASPECT = 4 / 3;

export const LIMITS = {
  /** Points in one stroke; the pen starts a new stroke past it. */
  pointsPerStroke: 2_000,
  /** Live strokes on a board: more are refused (the UI says the board is full). */
  strokes: 5_000,
  /** Points over all strokes: what a redraw costs stays bounded. */
  totalPoints: 400_000,
  /** Remembered removals (a removal can arrive before its stroke). */
  removed: 20_000,
  /** Authors in a clear's per-author counters. */
  clearAuthors: 256,
  /** Ids in one removal message. */
  idsPerRemoval: 200,
  /** Characters in one text element. */
  textChars: 200,
} as const;

/** Elements beside freehand strokes: a shape spans two corners (or a line's ends), a text sits at one point. */
export const SHAPES = ['rect', 'ellipse', 'line', 'arrow', 'text'] as const;
export type Shape = (typeof SHAPES)[number];
/** Text sizes, in thousandths of the board's width (a text's `w` indexes this instead of WIDTHS). */
export const TEXT_SIZES = [24, 36, 56] as const;

export interface Stroke {
  /** Author's peer id. */
  a: string;
  /** Author's counter: rises with time (Date.now()-based), so strokes stack the same everywhere. */
  n: number;
  /** Colour index into PALETTE. */
  c: number;
  /** Width index into WIDTHS. */
  w: number;
  /** Flat [x0, y0, x1, y1, …], each 0..SCALE: a shape has exactly two points, a text one. */
  p: number[];
  /** A shape or a text; absent for a freehand stroke. */
  k?: Shape;
  /** A text element's text. */
  s?: string;
}

export type BoardOp =
  | { kind: 'stroke'; stroke: Stroke }
  /** Points `at` onwards of a stroke being drawn (streamed every ~50 ms); a gap waits for the whole stroke. */
  | { kind: 'segment'; stroke: Stroke; at: number }
  | { kind: 'remove'; ids: string[] }
  /** Removes every stroke whose counter is at most its author's entry. */
  | { kind: 'clear'; upTo: Record<string, number> };

export const strokeId = (stroke: Pick<Stroke, 'a' | 'n'>) => `${stroke.a}#${stroke.n}`;

/** Back-to-front: the same order on every page, whatever order the strokes came in. */
export const stackOrder = (x: Stroke, y: Stroke) => x.n - y.n || (x.a < y.a ? -1 : x.a > y.a ? 1 : 0);

export class Board {
  private readonly strokes = new Map<string, Stroke>();
  private readonly removed = new Set<string>();
  private readonly cleared = new Map<string, number>();
  private points = 0;
  /** Rises with each change, for the screen to redraw. */
  version = 0;

  /** Applies an operation; false when it changed nothing (a repeat) or was refused by a limit. */
  apply(op: BoardOp): boolean {
    const changed =
      op.kind === 'stroke'
        ? this.put(op.stroke)
        : op.kind === 'segment'
          ? this.extend(op.stroke, op.at)
          : op.kind === 'remove'
            ? this.remove(op.ids)
            : this.clear(op.upTo);
    if (changed) this.version++;
    return changed;
  }

  private gone(stroke: Pick<Stroke, 'a' | 'n'>) {
    return this.removed.has(strokeId(stroke)) || stroke.n <= (this.cleared.get(stroke.a) ?? -1);
  }

  /** A stroke, or a longer version of one (it grows while drawn): the longest wins everywhere. */
  private put(stroke: Stroke): boolean {
    if (this.gone(stroke)) return false;
    const id = strokeId(stroke);
    const had = this.strokes.get(id);
    if (had && (had.p.length >= stroke.p.length || had.k || stroke.k)) return false;
    if (!had && this.strokes.size >= LIMITS.strokes) return false;
    const added = stroke.p.length / 2 - (had ? had.p.length / 2 : 0);
    if (this.points + added > LIMITS.totalPoints) return false;
    this.points += added;
    // A stroke keeps the colour and width it began with: a later version cannot repaint it.
    // A shape or a text never grows: only a freehand stroke has longer versions.
    const element: Stroke = { a: stroke.a, n: stroke.n, c: stroke.c, w: stroke.w, p: stroke.p };
    if (stroke.k) element.k = stroke.k;
    if (stroke.k === 'text') element.s = stroke.s ?? '';
    this.strokes.set(id, had ? { ...had, p: stroke.p } : element);
    return true;
  }

  /** Appends a streamed segment where it follows on; a repeat or a gap (a segment lost to a late join) changes nothing. */
  private extend(segment: Stroke, at: number): boolean {
    if (at === 0) return this.put(segment);
    const had = this.strokes.get(strokeId(segment));
    if (!had || had.p.length !== at * 2 || at + segment.p.length / 2 > LIMITS.pointsPerStroke) return false;
    return this.put({ ...had, p: had.p.concat(segment.p) });
  }

  private drop(id: string) {
    const stroke = this.strokes.get(id);
    if (!stroke) return false;
    this.points -= stroke.p.length / 2;
    this.strokes.delete(id);
    return true;
  }

  private remove(ids: string[]): boolean {
    let changed = false;
    for (const id of ids) {
      if (this.removed.has(id)) continue;
      // The oldest removals are forgotten first: their strokes are long gone everywhere.
      if (this.removed.size >= LIMITS.removed) this.removed.delete(this.removed.values().next().value!);
      this.removed.add(id);
      changed = this.drop(id) || changed;
    }
    return changed;
  }

  private clear(upTo: Record<string, number>): boolean {
    let raised = false;
    for (const [author, n] of Object.entries(upTo)) {
      if (n <= (this.cleared.get(author) ?? -1)) continue;
      if (!this.cleared.has(author) && this.cleared.size >= LIMITS.clearAuthors) continue;
      this.cleared.set(author, n);
      raised = true;
    }
    if (!raised) return false;
    for (const [id, stroke] of this.strokes) if (this.gone(stroke)) this.drop(id);
    return true;
  }

  has(id: string) {
    return this.strokes.has(id);
  }

  get(id: string): Stroke | undefined {
    return this.strokes.get(id);
  }

  /** What is on the board, back to front. */
  visible(): Stroke[] {
    return [...this.strokes.values()].sort(stackOrder);
  }

  get size() {
    return this.strokes.size;
  }

  get totalPoints() {
    return this.points;
  }

  /** Everything a late joiner needs: the strokes, the removals and the clears (board-messages.ts cuts it into messages). */
  state() {
    return { strokes: this.visible(), removed: [...this.removed], cleared: Object.fromEntries(this.cleared) };
  }

  /** For a clear: the highest counter seen per author, so strokes begun after it (anywhere) stay. */
  seen(): Record<string, number> {
    const upTo: Record<string, number> = Object.fromEntries(this.cleared);
    for (const stroke of this.strokes.values()) upTo[stroke.a] = Math.max(upTo[stroke.a] ?? -1, stroke.n);
    return upTo;
  }
}
