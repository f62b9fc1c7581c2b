// The board as an SVG file, made in the browser for "Save as SVG" (docs/meetings.md "Whiteboard"):
// the same elements and geometry as draw-board.ts paints, at a fixed size. Every value written is
// a number, a palette colour or a text escaped for XML: nothing a peer sent is written raw.
import { ASPECT, SCALE, type Stroke } from '@/lib/meeting/client/whiteboard/board-model';
import { arrowHead, colourOf, linePixels, textPixels } from './draw-board';

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
const r = (value: number) => Math.round(value * 10) / 10;

function element(stroke: Stroke, width: number, height: number): string {
  const sx = width / SCALE;
  const sy = height / SCALE;
  const colour = colourOf(stroke);
  const line = `fill="none" stroke="${colour}" stroke-width="${r(linePixels(stroke, width))}" stroke-linecap="round" stroke-linejoin="round"`;
  const p = stroke.p.map((v, i) => r(v * (i % 2 ? sy : sx)));
  const [x0, y0, x1, y1] = [p[0]!, p[1]!, p[2] ?? 0, p[3] ?? 0];
  switch (stroke.k) {
    case 'text':
      return `<text x="${x0}" y="${y0}" dominant-baseline="hanging" font-family="sans-serif" font-size="${r(textPixels(stroke, width))}" fill="${colour}">${escapeXml(stroke.s ?? '')}</text>`;
    case 'rect':
      return `<rect x="${Math.min(x0, x1)}" y="${Math.min(y0, y1)}" width="${r(Math.abs(x1 - x0))}" height="${r(Math.abs(y1 - y0))}" ${line}/>`;
    case 'ellipse':
      return `<ellipse cx="${r((x0 + x1) / 2)}" cy="${r((y0 + y1) / 2)}" rx="${r(Math.abs(x1 - x0) / 2)}" ry="${r(Math.abs(y1 - y0) / 2)}" ${line}/>`;
    case 'line':
      return `<line x1="${x0}" y1="${y0}" x2="${x1}" y2="${y1}" ${line}/>`;
    case 'arrow': {
      const [ax, ay, bx, by] = arrowHead(x0, y0, x1, y1, Math.max(linePixels(stroke, width) * 4, width / 60)).map(r);
      return `<path d="M${x0} ${y0}L${x1} ${y1}M${ax} ${ay}L${x1} ${y1}L${bx} ${by}" ${line}/>`;
    }
    default:
      if (p.length === 2) return `<circle cx="${x0}" cy="${y0}" r="${r(linePixels(stroke, width) / 2)}" fill="${colour}"/>`;
      return `<polyline points="${p.join(' ')}" ${line}/>`;
  }
}

/** The whole board, back to front, on a white sheet `width` pixels wide. */
export function boardSvg(strokes: Stroke[], width = 1600): string {
  const height = Math.round(width / ASPECT);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...strokes.map((stroke) => element(stroke, width, height)),
    '</svg>',
  ].join('\n');
}
