// Paints the board (lib/meeting/client/whiteboard/board-model.ts) onto a canvas: a white sheet,
// then each stroke back to front, scaled from board units to the canvas's pixels. A white
// background makes the PNG export look as the board does.
import { PALETTE, SCALE, WIDTHS, type Stroke } from '@/lib/meeting/client/whiteboard/board-model';

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
    const colour = PALETTE[stroke.c] ?? PALETTE[0];
    const lineWidth = ((WIDTHS[stroke.w] ?? WIDTHS[0]) * width) / 1000;
    const p = stroke.p;
    if (p.length === 2) {
      // One point: a dot as wide as the line.
      context.fillStyle = colour;
      context.beginPath();
      context.arc(p[0]! * sx, p[1]! * sy, lineWidth / 2, 0, Math.PI * 2);
      context.fill();
      continue;
    }
    context.strokeStyle = colour;
    context.lineWidth = lineWidth;
    context.beginPath();
    context.moveTo(p[0]! * sx, p[1]! * sy);
    for (let i = 2; i < p.length; i += 2) context.lineTo(p[i]! * sx, p[i + 1]! * sy);
    context.stroke();
  }
}
