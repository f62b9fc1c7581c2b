/** @jest-environment node */
import { Board, LIMITS, strokeId, type BoardOp, type Stroke } from '@/lib/meeting/client/whiteboard/board-model';

// The whiteboard's board (docs/meetings.md "Whiteboard"): a set of strokes with add, remove and
// clear operations that are idempotent and commute, so every page that received the same
// operations — in any order, some twice — shows the same board.

const stroke = (a: string, n: number, points = 2, c = 0): Stroke => ({ a, n, c, w: 1, p: Array.from({ length: points * 2 }, (_, i) => (i * 7) % 10_000) });
const add = (s: Stroke): BoardOp => ({ kind: 'stroke', stroke: s });
const ids = (board: Board) => board.visible().map(strokeId);

/** Every order of a list (the lists here are short). */
function orders<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe('whiteboard board', () => {
  const cases: { name: string; ops: BoardOp[]; expected: string[] }[] = [
    { name: 'two peers drawing at once both keep their strokes', ops: [add(stroke('ada', 1)), add(stroke('bob', 1))], expected: ['ada#1', 'bob#1'] },
    { name: 'a removal takes the stroke away', ops: [add(stroke('ada', 1)), add(stroke('bob', 2)), { kind: 'remove', ids: ['ada#1'] }], expected: ['bob#2'] },
    {
      name: 'a removal that arrives before its stroke still wins',
      ops: [{ kind: 'remove', ids: ['ada#1'] }, add(stroke('ada', 1)), add(stroke('ada', 2))],
      expected: ['ada#2'],
    },
    {
      name: 'a clear removes what its sender had seen, not strokes begun after it',
      ops: [add(stroke('ada', 1)), add(stroke('bob', 5)), { kind: 'clear', upTo: { ada: 1, bob: 5 } }, add(stroke('bob', 6)), add(stroke('ada', 1, 9))],
      expected: ['bob#6'],
    },
    {
      name: 'a longer version of a stroke (it grows while drawn) replaces the shorter',
      ops: [add(stroke('ada', 1, 2)), add(stroke('ada', 1, 5)), add(stroke('ada', 1, 3))],
      expected: ['ada#1'],
    },
  ];

  it.each(cases)('$name, in every order and applied twice', ({ ops, expected }) => {
    for (const order of orders(ops)) {
      const board = new Board();
      for (const op of [...order, ...order]) board.apply(op);
      expect(ids(board).sort()).toEqual([...expected].sort());
    }
  });

  it('the longest version of a stroke wins whatever order the versions came in', () => {
    for (const order of orders([stroke('ada', 1, 2), stroke('ada', 1, 5), stroke('ada', 1, 3)])) {
      const board = new Board();
      for (const s of order) board.apply(add(s));
      expect(board.get('ada#1')!.p).toHaveLength(10);
    }
  });

  it('strokes stack by counter then author on every page, whatever order they came in', () => {
    const strokes = [stroke('bob', 2), stroke('ada', 2), stroke('ada', 1)];
    for (const order of orders(strokes)) {
      const board = new Board();
      for (const s of order) board.apply(add(s));
      expect(ids(board)).toEqual(['ada#1', 'ada#2', 'bob#2']);
    }
  });

  it('a stroke keeps its first colour: a later, longer version cannot repaint it', () => {
    const board = new Board();
    board.apply(add(stroke('ada', 1, 2, 0)));
    board.apply(add(stroke('ada', 1, 4, 3)));
    expect(board.get('ada#1')).toMatchObject({ c: 0 });
    expect(board.get('ada#1')!.p).toHaveLength(8);
  });

  it('segments extend a stroke where they follow on; a repeat or a gap changes nothing', () => {
    const board = new Board();
    const segment = (at: number, points: number[]): BoardOp => ({ kind: 'segment', stroke: { a: 'ada', n: 1, c: 0, w: 0, p: points }, at });
    expect(board.apply(segment(0, [1, 1, 2, 2]))).toBe(true);
    expect(board.apply(segment(2, [3, 3]))).toBe(true);
    expect(board.apply(segment(2, [3, 3]))).toBe(false);
    expect(board.apply(segment(5, [9, 9]))).toBe(false);
    expect(board.get('ada#1')!.p).toEqual([1, 1, 2, 2, 3, 3]);
    // A late joiner's first segment of someone's stroke comes with a gap: nothing until the whole stroke.
    expect(board.apply(segment(0, [1, 1])) || board.apply({ kind: 'segment', stroke: { a: 'bob', n: 1, c: 0, w: 0, p: [4, 4] }, at: 3 })).toBe(false);
  });

  it('the limits hold: strokes on the board and points over all strokes', () => {
    const board = new Board();
    for (let n = 0; n < LIMITS.strokes + 10; n++) board.apply(add(stroke('ada', n, 1)));
    expect(board.size).toBe(LIMITS.strokes);
    const heavy = new Board();
    const perStroke = LIMITS.pointsPerStroke;
    for (let n = 0; n < LIMITS.totalPoints / perStroke + 5; n++) heavy.apply(add(stroke('ada', n, perStroke)));
    expect(heavy.totalPoints).toBeLessThanOrEqual(LIMITS.totalPoints);
    expect(heavy.size).toBe(LIMITS.totalPoints / perStroke);
    // Removing makes room again.
    heavy.apply({ kind: 'remove', ids: ['ada#0'] });
    expect(heavy.apply(add(stroke('bob', 1, perStroke)))).toBe(true);
  });

  it('seen() gives a clear that covers exactly what is on the board', () => {
    const board = new Board();
    board.apply(add(stroke('ada', 3)));
    board.apply(add(stroke('bob', 7)));
    const upTo = board.seen();
    expect(upTo).toEqual({ ada: 3, bob: 7 });
    board.apply({ kind: 'clear', upTo });
    expect(board.size).toBe(0);
    expect(board.state()).toEqual({ strokes: [], removed: [], cleared: { ada: 3, bob: 7 } });
  });

  it('a shape or text never grows nor turns into a stroke: a later version of its id changes nothing', () => {
    const board = new Board();
    const rect = { a: 'ada', n: 1, c: 0, w: 0, p: [0, 0, 10, 10], k: 'rect' as const };
    expect(board.apply({ kind: 'stroke', stroke: rect })).toBe(true);
    expect(board.apply({ kind: 'stroke', stroke: { ...rect, k: undefined, p: [0, 0, 1, 1, 2, 2] } })).toBe(false);
    expect(board.apply({ kind: 'segment', stroke: { ...rect, p: [5, 5] }, at: 2 })).toBe(false);
    expect(board.visible()).toEqual([rect]);
    const plain = { a: 'bob', n: 2, c: 0, w: 0, p: [0, 0] };
    board.apply({ kind: 'stroke', stroke: plain });
    expect(board.apply({ kind: 'stroke', stroke: { ...plain, p: [0, 0, 1, 1], k: 'line' } })).toBe(false);
  });
});
