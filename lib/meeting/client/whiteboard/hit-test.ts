// The eraser's reach: which strokes pass within a radius of a point, all in board units
// (0..SCALE). Whole strokes go (board-model.ts): no stroke is ever cut in two, so removal stays
// one id per stroke on every page.
import { ASPECT, SCALE, TEXT_SIZES, WIDTHS, strokeId, type Stroke } from './board-model';

/** Distance from (x, y) to the segment (ax, ay)–(bx, by). */
function toSegment(x: number, y: number, ax: number, ay: number, bx: number, by: number) {
  const dx = bx - ax;
  const dy = by - ay;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / length));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}

/** Half a stroke's drawn width in board units (WIDTHS are thousandths of the board's width). */
export const halfWidth = (stroke: Pick<Stroke, 'w'>) => ((WIDTHS[stroke.w] ?? 0) * SCALE) / 2000;

/**
 * A text's box in board units: its height is its size (thousandths of the width, so ASPECT times
 * as many y units), its width about 0.6 of the height per character — what draw-board.ts paints.
 */
export function textBox(stroke: Pick<Stroke, 'w' | 'p' | 's'>) {
  const size = ((TEXT_SIZES[stroke.w] ?? TEXT_SIZES[0]) * SCALE) / 1000;
  const chars = Array.from(stroke.s ?? '').length;
  return { x: stroke.p[0]!, y: stroke.p[1]!, width: size * 0.6 * chars, height: size * ASPECT };
}

/** Within `reach` of the box from (ax, ay) to (bx, by), its inside included: a rectangle, an ellipse or a text is hit anywhere on it. */
function nearBox(x: number, y: number, ax: number, ay: number, bx: number, by: number, reach: number) {
  const dx = Math.max(Math.min(ax, bx) - x, 0, x - Math.max(ax, bx));
  const dy = Math.max(Math.min(ay, by) - y, 0, y - Math.max(ay, by));
  return Math.hypot(dx, dy) <= reach;
}

/** Ids of the elements whose line (or, for a shape or text, whose box) comes within `radius` of (x, y). */
export function strokesNear(strokes: Iterable<Stroke>, x: number, y: number, radius: number): string[] {
  const hit: string[] = [];
  for (const stroke of strokes) {
    const reach = radius + halfWidth(stroke);
    const p = stroke.p;
    let near = false;
    if (stroke.k === 'text') {
      const box = textBox(stroke);
      near = nearBox(x, y, box.x, box.y, box.x + box.width, box.y + box.height, radius);
    } else if (stroke.k === 'rect' || stroke.k === 'ellipse') near = nearBox(x, y, p[0]!, p[1]!, p[2]!, p[3]!, reach);
    else if (p.length === 2) near = Math.hypot(x - p[0]!, y - p[1]!) <= reach;
    for (let i = 2; !near && stroke.k !== 'text' && i < p.length; i += 2) near = toSegment(x, y, p[i - 2]!, p[i - 1]!, p[i]!, p[i + 1]!) <= reach;
    if (near) hit.push(strokeId(stroke));
  }
  return hit;
}
