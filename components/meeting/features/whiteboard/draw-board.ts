// Paints the board (lib/meeting/client/whiteboard/board-model.ts) onto a canvas: a white sheet,
// then each element back to front — strokes, shapes, texts — scaled from board units to the
// canvas's pixels. A white background makes the PNG export look as the board does; board-svg.ts
// draws the same elements as SVG with the same geometry (arrowHead, textPixels).
import { PALETTE, SCALE, TEXT_SIZES, WIDTHS, type Stroke } from '@/lib/meeting/client/whiteboard/board-model';

/** The two ends of an arrow's head at (x1, y1), pointing away from (x0, y0), `length` long. */
export function arrowHead(x0: number, y0: number, x1: number, y1: number, length: number): [number, number, number, number] {
  const angle = Math.atan2(y1 - y0, x1 - x0);
  const spread = Math.PI / 7;
  return [
    x1 - length * Math.cos(angle - spread),
    y1 - length * Math.sin(angle - spread),
    x1 - length * Math.cos(angle + spread),
    y1 - length * Math.sin(angle + spread),
  ];
}

/** A text's font size in pixels on a board `width` pixels wide. */
export const textPixels = (stroke: Pick<Stroke, 'w'>, width: number) => ((TEXT_SIZES[stroke.w] ?? TEXT_SIZES[0]) * width) / 1000;
/** A line's width in pixels on a board `width` pixels wide. */
export const linePixels = (stroke: Pick<Stroke, 'w'>, width: number) => ((WIDTHS[stroke.w] ?? WIDTHS[0]) * width) / 1000;
export const colourOf = (stroke: Pick<Stroke, 'c'>) => PALETTE[stroke.c] ?? PALETTE[0];

function drawShape(context: CanvasRenderingContext2D, stroke: Stroke, sx: number, sy: number, width: number) {
  const [x0, y0, x1, y1] = [stroke.p[0]! * sx, stroke.p[1]! * sy, (stroke.p[2] ?? 0) * sx, (stroke.p[3] ?? 0) * sy];
  context.beginPath();
  if (stroke.k === 'rect') context.rect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
  else if (stroke.k === 'ellipse') context.ellipse((x0 + x1) / 2, (y0 + y1) / 2, Math.abs(x1 - x0) / 2, Math.abs(y1 - y0) / 2, 0, 0, Math.PI * 2);
  else {
    context.moveTo(x0, y0);
    context.lineTo(x1, y1);
    if (stroke.k === 'arrow') {
      const [ax, ay, bx, by] = arrowHead(x0, y0, x1, y1, Math.max(linePixels(stroke, width) * 4, width / 60));
      context.moveTo(ax, ay);
      context.lineTo(x1, y1);
      context.lineTo(bx, by);
    }
  }
  context.stroke();
}

export function drawBoard(canvas: HTMLCanvasElement, strokes: Stroke[]) {
  const context = canvas.getContext('2d');
  if (!context) return;
  const { width, height } = canvas;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.lineCap = 'round';
  context.lineJoin = 'round';
  const sx = width / SCALE;
  const sy = height / SCALE;
  for (const stroke of strokes) {
    const colour = colourOf(stroke);
    const lineWidth = linePixels(stroke, width);
    const p = stroke.p;
    if (stroke.k === 'text') {
      context.fillStyle = colour;
      context.textBaseline = 'top';
      context.font = `${textPixels(stroke, width)}px sans-serif`;
      context.fillText(stroke.s ?? '', p[0]! * sx, p[1]! * sy);
      continue;
    }
    context.strokeStyle = colour;
    context.lineWidth = lineWidth;
    if (stroke.k) {
      drawShape(context, stroke, sx, sy, width);
      continue;
    }
    if (p.length === 2) {
      // One point: a dot as wide as the line.
      context.fillStyle = colour;
      context.beginPath();
      context.arc(p[0]! * sx, p[1]! * sy, lineWidth / 2, 0, Math.PI * 2);
      context.fill();
      continue;
    }
    context.beginPath();
    context.moveTo(p[0]! * sx, p[1]! * sy);
    for (let i = 2; i < p.length; i += 2) context.lineTo(p[i]! * sx, p[i + 1]! * sy);
    context.stroke();
  }
}
