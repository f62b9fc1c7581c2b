/** @jest-environment node */
import { Board, LIMITS, strokeId, type Stroke } from '@/lib/meeting/client/whiteboard/board-model';
import { parseWhiteboardMessage, snapshotMessages, SNAPSHOT_LIMITS } from '@/lib/meeting/client/whiteboard/board-messages';

// What a peer may send the whiteboard (docs/meetings.md "Whiteboard"): every message is checked
// whole; one wrong field drops it, nothing throws, and a stroke can only be streamed by its author.

const good = { t: 'wb-end', n: 5, c: 1, w: 2, p: [0, 0, 10_000, 10_000] };
const points = (count: number) => Array.from({ length: count * 2 }, () => 5000);

describe('whiteboard messages', () => {
  it.each([
    { name: 'a whole stroke', raw: good, kinds: ['stroke'] },
    { name: 'a segment', raw: { t: 'wb-seg', n: 5, c: 0, w: 0, at: 3, p: [1, 2] }, kinds: ['segment'] },
    { name: 'a removal', raw: { t: 'wb-del', ids: ['bob#5', 'ada-1_x#12'] }, kinds: ['remove'] },
    { name: 'a clear', raw: { t: 'wb-clear', upTo: { ada: 3, bob: 0 } }, kinds: ['clear'] },
    {
      name: 'a snapshot with strokes by others',
      raw: { t: 'wb-snap', s: [{ ...good, a: 'carol' }], d: ['x#1'], upTo: {} },
      kinds: ['clear', 'remove', 'stroke'],
    },
    { name: 'a rectangle', raw: { ...good, k: 'rect', p: [0, 0, 10_000, 5000] }, kinds: ['stroke'] },
    { name: 'an ellipse', raw: { ...good, k: 'ellipse', p: [10, 10, 20, 20] }, kinds: ['stroke'] },
    { name: 'an arrow', raw: { ...good, k: 'arrow', p: [10, 10, 20, 20] }, kinds: ['stroke'] },
    { name: 'a text', raw: { ...good, k: 'text', p: [10, 10], s: 'Größe 12 — 見て' }, kinds: ['stroke'] },
    { name: 'a text of the longest length', raw: { ...good, k: 'text', p: [10, 10], s: 'x'.repeat(LIMITS.textChars) }, kinds: ['stroke'] },
    { name: 'a snapshot with a shape', raw: { t: 'wb-snap', s: [{ ...good, a: 'carol', k: 'line' }], d: [], upTo: {} }, kinds: ['clear', 'remove', 'stroke'] },
  ])('accepts $name', ({ raw, kinds }) => {
    expect(parseWhiteboardMessage('ada', raw)?.map((op) => op.kind)).toEqual(kinds);
  });

  it('a live stroke is always the sender’s own: its author is the channel’s peer, not a field', () => {
    const ops = parseWhiteboardMessage('bob', { ...good, a: 'ada' });
    expect(ops).toEqual([{ kind: 'stroke', stroke: { a: 'bob', n: 5, c: 1, w: 2, p: [0, 0, 10_000, 10_000] } }]);
  });

  it.each([
    { name: 'not an object', raw: 'wb-end' },
    { name: 'an array', raw: [good] },
    { name: 'an unknown type', raw: { ...good, t: 'wb-paint' } },
    { name: 'a colour outside the palette', raw: { ...good, c: 6 } },
    { name: 'a colour as CSS', raw: { ...good, c: 'red; background:url(x)' } },
    { name: 'a width outside the list', raw: { ...good, w: 3 } },
    { name: 'a coordinate beyond the board', raw: { ...good, p: [0, 0, 10_001, 5] } },
    { name: 'a negative coordinate', raw: { ...good, p: [-1, 0] } },
    { name: 'a fractional coordinate', raw: { ...good, p: [0.5, 0] } },
    { name: 'NaN as a string', raw: { ...good, p: ['NaN', 0] } },
    { name: 'an odd number of coordinates', raw: { ...good, p: [1, 2, 3] } },
    { name: 'no points', raw: { ...good, p: [] } },
    { name: 'too many points', raw: { ...good, p: points(LIMITS.pointsPerStroke + 1) } },
    { name: 'a segment that runs past the stroke limit', raw: { t: 'wb-seg', n: 1, c: 0, w: 0, at: LIMITS.pointsPerStroke - 1, p: points(2) } },
    { name: 'a negative counter', raw: { ...good, n: -1 } },
    { name: 'an unsafe counter', raw: { ...good, n: 2 ** 60 } },
    { name: 'a removal of a malformed id', raw: { t: 'wb-del', ids: ['<img>#1'] } },
    { name: 'a removal of too many ids', raw: { t: 'wb-del', ids: Array.from({ length: LIMITS.idsPerRemoval + 1 }, (_, i) => `a#${i}`) } },
    { name: 'an empty removal', raw: { t: 'wb-del', ids: [] } },
    { name: 'a clear with a bad counter', raw: { t: 'wb-clear', upTo: { ada: 'all' } } },
    {
      name: 'a clear over too many authors',
      raw: { t: 'wb-clear', upTo: Object.fromEntries(Array.from({ length: LIMITS.clearAuthors + 1 }, (_, i) => [`p${i}`, 1])) },
    },
    {
      name: 'a snapshot with one bad stroke among good ones',
      raw: {
        t: 'wb-snap',
        s: [
          { ...good, a: 'x' },
          { ...good, a: 'y', c: 99 },
        ],
        d: [],
        upTo: {},
      },
    },
    { name: 'a snapshot stroke with a bad author', raw: { t: 'wb-snap', s: [{ ...good, a: 'a b' }], d: [], upTo: {} } },
    {
      name: 'a snapshot with too many strokes',
      raw: { t: 'wb-snap', s: Array.from({ length: SNAPSHOT_LIMITS.strokes + 1 }, () => ({ ...good, a: 'x' })), d: [], upTo: {} },
    },
    { name: 'an unknown shape', raw: { ...good, k: 'star' } },
    { name: 'a shape of three points', raw: { ...good, k: 'rect', p: [0, 0, 1, 1, 2, 2] } },
    { name: 'a shape of one point', raw: { ...good, k: 'line', p: [0, 0] } },
    { name: 'a shape with an infinite corner', raw: { ...good, k: 'ellipse', p: [0, 0, Infinity, 1] } },
    { name: 'a shape carrying text', raw: { ...good, k: 'rect', s: 'hi' } },
    { name: 'a stroke carrying text', raw: { ...good, s: 'hi' } },
    { name: 'a shape streamed as a segment', raw: { t: 'wb-seg', n: 1, c: 0, w: 0, at: 0, p: [1, 1], k: 'rect' } },
    { name: 'a text without text', raw: { ...good, k: 'text', p: [1, 1] } },
    { name: 'a text of spaces', raw: { ...good, k: 'text', p: [1, 1], s: '   ' } },
    { name: 'a text too long', raw: { ...good, k: 'text', p: [1, 1], s: 'x'.repeat(LIMITS.textChars + 1) } },
    { name: 'a text with a bidi override', raw: { ...good, k: 'text', p: [1, 1], s: 'abc\u202Eevil' } },
    { name: 'a text with a line break', raw: { ...good, k: 'text', p: [1, 1], s: 'a\nb' } },
    { name: 'a text as a number', raw: { ...good, k: 'text', p: [1, 1], s: 42 } },
    { name: 'a text at two points', raw: { ...good, k: 'text', p: [1, 1, 2, 2], s: 'a' } },
    { name: 'a text of an unknown size', raw: { ...good, k: 'text', p: [1, 1], s: 'a', w: 3 } },
    { name: 'a snapshot with a bad shape', raw: { t: 'wb-snap', s: [{ ...good, a: 'x', k: 'rect', p: [1, 1] }], d: [], upTo: {} } },
  ])('drops $name', ({ raw }) => {
    expect(parseWhiteboardMessage('ada', raw)).toBeNull();
  });

  it('a board of thousands of strokes goes out in messages within the channel’s limit, and arrives whole in any order', () => {
    const board = new Board();
    for (let n = 0; n < 1_500; n++) board.apply({ kind: 'stroke', stroke: { a: `peer${n % 7}`, n, c: n % 6, w: n % 3, p: points(1 + (n % 40)) } });
    board.apply({ kind: 'remove', ids: Array.from({ length: 150 }, (_, i) => `peer${i % 7}#${i}`) });
    board.apply({ kind: 'clear', upTo: { peer0: 200 } });
    const messages = snapshotMessages(board.state());
    expect(messages.length).toBeGreaterThan(1);
    // The main channel refuses more than 96 KiB sealed (links/peer.ts): each message stays well under.
    for (const message of messages) expect(JSON.stringify(message).length).toBeLessThan(64 * 1024);
    const joiner = new Board();
    for (const message of [...messages].reverse()) for (const op of parseWhiteboardMessage('bob', message)!) joiner.apply(op);
    expect(joiner.visible().map(strokeId)).toEqual(board.visible().map(strokeId));
    expect(joiner.state()).toEqual(board.state());
  });

  it('the largest strokes still fit a message each', () => {
    const huge: Stroke = { a: 'a'.repeat(64), n: Number.MAX_SAFE_INTEGER, c: 0, w: 0, p: Array.from({ length: LIMITS.pointsPerStroke * 2 }, () => 10_000) };
    const messages = snapshotMessages({ strokes: [huge, huge, huge, huge], removed: [], cleared: {} });
    for (const message of messages) expect(JSON.stringify(message).length).toBeLessThan(90 * 1024);
  });
});
