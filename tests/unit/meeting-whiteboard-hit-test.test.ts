/** @jest-environment node */
import { strokesNear } from '@/lib/meeting/client/whiteboard/hit-test';
import type { Stroke } from '@/lib/meeting/client/whiteboard/board-model';

// The eraser (docs/meetings.md "Whiteboard") removes whole strokes that pass near the pointer,
// counting the line's own width: thick lines are easier to hit.

const line: Stroke = { a: 'ada', n: 1, c: 0, w: 0, p: [1000, 1000, 5000, 1000] };
const thick: Stroke = { a: 'bob', n: 2, c: 0, w: 2, p: [1000, 3000, 5000, 3000] };
const dot: Stroke = { a: 'ada', n: 3, c: 0, w: 0, p: [8000, 8000] };

describe('whiteboard eraser', () => {
  it.each([
    { name: 'on the line', x: 3000, y: 1000, radius: 10, hit: ['ada#1'] },
    { name: 'beside the line, within the radius', x: 3000, y: 1090, radius: 80, hit: ['ada#1'] },
    { name: 'beside the line, outside the radius', x: 3000, y: 1200, radius: 80, hit: [] },
    { name: 'past the end of the line', x: 5200, y: 1000, radius: 80, hit: [] },
    { name: 'near a thick line, where a thin one would be missed', x: 3000, y: 3065, radius: 10, hit: ['bob#2'] },
    { name: 'on a dot', x: 8005, y: 8000, radius: 10, hit: ['ada#3'] },
    { name: 'a radius over two strokes', x: 3000, y: 2000, radius: 1000, hit: ['ada#1', 'bob#2'] },
  ])('$name', ({ x, y, radius, hit }) => {
    expect(strokesNear([line, thick, dot], x, y, radius)).toEqual(hit);
  });
});
