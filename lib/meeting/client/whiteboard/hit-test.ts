// The eraser's reach: which strokes pass within a radius of a point, all in board units
// (0..SCALE). Whole strokes go (board-model.ts): no stroke is ever cut in two, so removal stays
// one id per stroke on every page.
import { SCALE, WIDTHS, strokeId, type Stroke } from './board-model';

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

/** Ids of the strokes whose line comes within `radius` of (x, y). */
export function strokesNear(strokes: Iterable<Stroke>, x: number, y: number, radius: number): string[] {
  const hit: string[] = [];
  for (const stroke of strokes) {
    const reach = radius + halfWidth(stroke);
    const p = stroke.p;
    let near = false;
    if (p.length === 2) near = Math.hypot(x - p[0]!, y - p[1]!) <= reach;
    for (let i = 2; !near && i < p.length; i += 2) near = toSegment(x, y, p[i - 2]!, p[i - 1]!, p[i]!, p[i + 1]!) <= reach;
    if (near) hit.push(strokeId(stroke));
  }
  return hit;
}
