/** @jest-environment node */
import { boardSvg } from '@/components/meeting/features/whiteboard/board-svg';
import type { Stroke } from '@/lib/meeting/client/whiteboard/board-model';

// "Save as SVG" (docs/meetings.md "Whiteboard"): every element becomes its SVG counterpart, in
// stacking order, and a peer's text is escaped — it can never become markup in the saved file.

const elements: Stroke[] = [
  { a: 'ada', n: 1, c: 1, w: 0, p: [0, 0, 5000, 5000, 10_000, 0] },
  { a: 'ada', n: 2, c: 2, w: 1, p: [1000, 1000, 3000, 2000], k: 'rect' },
  { a: 'bob', n: 3, c: 0, w: 0, p: [1000, 1000, 3000, 2000], k: 'ellipse' },
  { a: 'bob', n: 4, c: 0, w: 0, p: [0, 0, 10_000, 10_000], k: 'arrow' },
  { a: 'bob', n: 5, c: 0, w: 2, p: [5000, 5000], k: 'text', s: '<script>alert("x")</script> & more' },
];

describe('whiteboard SVG export', () => {
  const svg = boardSvg(elements, 1600);

  it('draws each element with its own SVG element, back to front, on a 4:3 sheet', () => {
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="1600" height="1200"/);
    expect([...svg.matchAll(/<(polyline|rect|ellipse|path|text) /g)].map((m) => m[1])).toEqual(['rect', 'polyline', 'rect', 'ellipse', 'path', 'text']);
    expect(svg).toContain('<polyline points="0 0 800 600 1600 0" fill="none" stroke="#dc2626"');
    expect(svg).toContain('<rect x="160" y="120" width="320" height="120" fill="none" stroke="#2563eb"');
  });

  it('escapes a peer’s text', () => {
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; more</text>');
  });
});
