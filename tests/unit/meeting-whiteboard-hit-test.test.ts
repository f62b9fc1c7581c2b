/** @jest-environment node */
import { strokesNear } from '@/lib/meeting/client/whiteboard/hit-test';
import type { Stroke } from '@/lib/meeting/client/whiteboard/board-model';

// The eraser (docs/meetings.md "Whiteboard") removes whole strokes that pass near the pointer,
// counting the line's own width: thick lines are easier to hit.

const line: Stroke = { a: 'ada', n: 1, c: 0, w: 0, p: [1000, 1000, 5000, 1000] };
const thick: Stroke = { a: 'bob', n: 2, c: 0, w: 2, p: [1000, 3000, 5000, 3000] };
const dot: Stroke = { a: 'ada', n: 3, c: 0, w: 0, p: [8000, 8000] };
const box: Stroke = { a: 'cy', n: 4, c: 0, w: 0, p: [6000, 1000, 9000, 4000], k: 'rect' };
const arrow: Stroke = { a: 'cy', n: 5, c: 0, w: 0, p: [1000, 9000, 5000, 9000], k: 'arrow' };
const text: Stroke = { a: 'cy', n: 6, c: 0, w: 0, p: [1000, 6000], k: 'text', s: 'Hello' };

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

  it.each([
    { name: 'inside a rectangle', x: 7500, y: 2500, hit: ['cy#4'] },
    { name: 'beside a rectangle', x: 9500, y: 2500, hit: [] },
    { name: 'on an arrow’s line', x: 3000, y: 9000, hit: ['cy#5'] },
    { name: 'off an arrow’s end', x: 5500, y: 9000, hit: [] },
    { name: 'on a text', x: 1300, y: 6100, hit: ['cy#6'] },
    { name: 'past a text’s last character', x: 3000, y: 6100, hit: [] },
  ])('a shape or text: $name', ({ x, y, hit }) => {
    expect(strokesNear([box, arrow, text], x, y, 50)).toEqual(hit);
  });
});
