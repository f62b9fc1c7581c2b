// One page's whiteboard (docs/meetings.md "Whiteboard"): the board (board-model.ts), what this
// page draws streamed to every peer as it is drawn, what peers send checked and merged
// (board-messages.ts), and the whole board sent to a peer whose channel opens (a late joiner).
// Loaded on first use (whiteboard-feature.ts): not in the call's first load.
import { Board, LIMITS, strokeId, type BoardOp, type Shape, type Stroke } from './board-model';
import { parseWhiteboardMessage, snapshotMessages, type WhiteboardMessage } from './board-messages';

/** Points reach the others in batches this often while a stroke is drawn. */
export const BATCH_MS = 50;

export interface SyncContext {
  readonly selfId: string;
  peers(): { id: string }[];
  send(peerId: string, message: WhiteboardMessage): boolean;
  /** To every peer of peers(), sealed once through the SFU for those who hear us there (call/features.ts broadcast). */
  sendToAll(message: WhiteboardMessage): void;
  /** The roster's host: only its clear is obeyed (the issue: "clear for the host"). */
  isHost(peerId: string): boolean;
  selfIsHost(): boolean;
  /** A peer's message changed the board (the call can say someone is drawing while the board is closed). */
  peerChanged?(peerId: string): void;
}

/** What the test probe shows of the board. */
export interface BoardView {
  strokes: { id: string; author: string; colour: number; width: number; points: number; kind?: Shape; text?: string }[];
  /** Messages refused by the check. */
  refused: number;
}

export class WhiteboardSync {
  readonly board = new Board();
  private counter = 0;
  private drawing: { stroke: Stroke; sent: number } | null = null;
  private readonly mine: string[] = [];
  private pendingRemovals: string[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly listeners = new Set<() => void>();
  private refused = 0;
  private closed = false;

  constructor(private readonly ctx: SyncContext) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  private changed() {
    for (const listener of this.listeners) listener();
  }

  private apply(ops: BoardOp[]): boolean {
    let changed = false;
    for (const op of ops) changed = this.board.apply(op) || changed;
    if (changed) this.changed();
    return changed;
  }

  private broadcast(message: WhiteboardMessage) {
    this.ctx.sendToAll(message);
  }

  /** A peer's message: applied when it passes the check, counted and dropped when not. */
  receive(from: string, raw: unknown) {
    if (this.closed) return;
    const parsed = parseWhiteboardMessage(from, raw);
    // A guest's clear is refused; in a guest's snapshot the clears are left out (its strokes are what its clears left).
    const fromHost = this.ctx.isHost(from);
    const ops = parsed && (fromHost || (raw as { t: string }).t !== 'wb-clear') ? parsed.filter((op) => fromHost || op.kind !== 'clear') : null;
    if (!ops) this.refused++;
    else if (this.apply(ops)) this.ctx.peerChanged?.(from);
  }

  /** A peer's main channel opened: it gets the board (nothing when the board is empty and never cleared). */
  channelOpen(peerId: string) {
    const state = this.board.state();
    if (this.closed || (!state.strokes.length && !state.removed.length && !Object.keys(state.cleared).length)) return;
    for (const message of snapshotMessages(state)) this.ctx.send(peerId, message);
  }

  /** Starts a stroke at (x, y) (0..SCALE); false when the board is full. */
  begin(x: number, y: number, colour: number, width: number): boolean {
    if (this.drawing) this.end();
    // Date.now()-based: strokes stack by when they began on every page (board-model.ts stackOrder).
    this.counter = Math.max(this.counter + 1, Date.now());
    const stroke: Stroke = { a: this.ctx.selfId, n: this.counter, c: colour, w: width, p: [x, y] };
    if (!this.board.apply({ kind: 'stroke', stroke })) return false;
    this.drawing = { stroke, sent: 0 };
    this.timer ??= setInterval(() => this.flush(), BATCH_MS);
    this.changed();
    return true;
  }

  /** A shape between two corners (or a line's ends), or a text at one point, sent whole; false when the board is full. */
  place(kind: Shape, p: number[], colour: number, width: number, text?: string): boolean {
    if (this.drawing) this.end();
    this.counter = Math.max(this.counter + 1, Date.now());
    const element: Stroke = { a: this.ctx.selfId, n: this.counter, c: colour, w: width, p, k: kind };
    if (kind === 'text') element.s = text ?? '';
    if (!this.board.apply({ kind: 'stroke', stroke: element })) return false;
    this.changed();
    const { n, c, w, k, s } = element;
    this.broadcast(kind === 'text' ? { t: 'wb-end', n, c, w, p, k, s } : { t: 'wb-end', n, c, w, p, k });
    this.mine.push(strokeId(element));
    return true;
  }

  /** The pen moved; past a stroke's point limit a new stroke goes on from the last point. */
  extend(x: number, y: number) {
    const drawing = this.drawing;
    if (!drawing) return;
    const { stroke } = drawing;
    if (stroke.p.length / 2 >= LIMITS.pointsPerStroke) {
      const [lastX, lastY] = stroke.p.slice(-2) as [number, number];
      this.end();
      if (this.begin(lastX, lastY, stroke.c, stroke.w)) this.extend(x, y);
      return;
    }
    const at = stroke.p.length / 2;
    if (this.board.apply({ kind: 'segment', stroke: { ...stroke, p: [x, y] }, at })) {
      drawing.stroke = this.board.get(strokeId(stroke))!;
      this.changed();
    }
  }

  /** The points drawn since the last batch, to every peer. */
  private flush() {
    const drawing = this.drawing;
    if (drawing && drawing.stroke.p.length / 2 > drawing.sent) {
      const { n, c, w, p } = drawing.stroke;
      this.broadcast({ t: 'wb-seg', n, c, w, at: drawing.sent, p: p.slice(drawing.sent * 2) });
      drawing.sent = p.length / 2;
    }
    if (this.pendingRemovals.length) {
      for (let at = 0; at < this.pendingRemovals.length; at += LIMITS.idsPerRemoval) {
        this.broadcast({ t: 'wb-del', ids: this.pendingRemovals.slice(at, at + LIMITS.idsPerRemoval) });
      }
      this.pendingRemovals = [];
    }
    if (!this.drawing && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** The pen lifted: the last batch, then the whole stroke (it makes good any segment a peer missed). */
  end() {
    const drawing = this.drawing;
    if (!drawing) return;
    this.flush();
    this.drawing = null;
    const { n, c, w, p } = drawing.stroke;
    this.broadcast({ t: 'wb-end', n, c, w, p });
    this.mine.push(strokeId(drawing.stroke));
  }

  /** Removes whole strokes (the eraser); the removal goes out with the next batch. */
  erase(ids: string[]) {
    const present = ids.filter((id) => this.board.has(id));
    if (!present.length) return;
    this.apply([{ kind: 'remove', ids: present }]);
    this.pendingRemovals.push(...present);
    this.timer ??= setInterval(() => this.flush(), BATCH_MS);
  }

  /** Takes back this page's last stroke still on the board; false when there is none. */
  undo(): boolean {
    while (this.mine.length) {
      const id = this.mine.pop()!;
      if (this.board.has(id)) {
        this.erase([id]);
        return true;
      }
    }
    return false;
  }

  canUndo() {
    return this.mine.some((id) => this.board.has(id));
  }

  /** Only the host clears (the others' pages refuse a guest's clear). */
  canClear() {
    return this.ctx.selfIsHost();
  }

  /** Clears what this page has seen; strokes someone began after it stay (board-model.ts). */
  clear() {
    if (!this.canClear()) return;
    this.end();
    const upTo = this.board.seen();
    this.apply([{ kind: 'clear', upTo }]);
    this.broadcast({ t: 'wb-clear', upTo });
  }

  view(): BoardView {
    return {
      strokes: this.board.visible().map((s) => ({
        id: strokeId(s),
        author: s.a,
        colour: s.c,
        width: s.w,
        points: s.p.length / 2,
        ...(s.k ? { kind: s.k } : {}),
        ...(s.s !== undefined ? { text: s.s } : {}),
      })),
      refused: this.refused,
    };
  }

  close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.listeners.clear();
  }
}
