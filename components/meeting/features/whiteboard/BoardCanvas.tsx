'use client';

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ASPECT, SCALE } from '@/lib/meeting/client/whiteboard/board-model';
import type { WhiteboardSync } from '@/lib/meeting/client/whiteboard/board-sync';
import { strokesNear } from '@/lib/meeting/client/whiteboard/hit-test';
import { drawBoard } from './draw-board';

export type Tool = 'pen' | 'eraser';

/** Board units the pen must move before a new point is kept: fewer points, the same line. */
const MIN_STEP = 12;
/** The eraser's reach, in board units (about 1% of the board's width). */
const ERASER_RADIUS = 100;

/** The largest 4:3 box that fits the space given (the board has one shape on every screen). */
function useFittedSize() {
  const ref = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const width = Math.floor(Math.min(element.clientWidth, element.clientHeight * ASPECT));
      setSize({ width, height: Math.floor(width / ASPECT) });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, size] as const;
}

/**
 * The drawing surface: pointer events (mouse, touch and pen alike), drawn on the next animation
 * frame after the board changes, however many changes came in between.
 */
export function BoardCanvas({
  sync,
  tool,
  colour,
  width,
  label,
  canvasRef,
  onFull,
}: {
  sync: WhiteboardSync;
  tool: Tool;
  colour: number;
  width: number;
  label: string;
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
  onFull: () => void;
}) {
  const [box, size] = useFittedSize();
  const last = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !size.width) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(size.width * ratio);
    canvas.height = Math.round(size.height * ratio);
    let frame = 0;
    const paint = () => {
      frame = 0;
      drawBoard(canvas, sync.board.visible());
    };
    paint();
    const unsubscribe = sync.subscribe(() => {
      frame ||= requestAnimationFrame(paint);
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [sync, size, canvasRef]);

  // A stroke under way ends if the board closes mid-line.
  useEffect(() => () => sync.end(), [sync]);

  /** Where a pointer is, in board units (0..SCALE: the same on every screen size). */
  const point = (canvas: HTMLCanvasElement, { clientX, clientY }: { clientX: number; clientY: number }) => {
    const rect = canvas.getBoundingClientRect();
    const clamp = (value: number) => Math.round(Math.min(SCALE, Math.max(0, value * SCALE)));
    return { x: clamp((clientX - rect.left) / rect.width), y: clamp((clientY - rect.top) / rect.height) };
  };
  const erase = (at: { x: number; y: number }) => sync.erase(strokesNear(sync.board.visible(), at.x, at.y, ERASER_RADIUS));

  function down(event: React.PointerEvent<HTMLCanvasElement>) {
    if (event.button !== 0 && event.pointerType === 'mouse') return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const at = point(event.currentTarget, event);
    last.current = at;
    if (tool === 'eraser') erase(at);
    else if (!sync.begin(at.x, at.y, colour, width)) {
      last.current = null;
      onFull();
    }
  }

  function move(event: React.PointerEvent<HTMLCanvasElement>) {
    if (!last.current) return;
    // The points the browser merged into this event, so a fast line keeps its shape.
    const events = event.nativeEvent.getCoalescedEvents?.() ?? [];
    for (const each of events.length ? events : [event.nativeEvent]) {
      const at = point(event.currentTarget, each);
      if (tool === 'eraser') erase(at);
      else if (Math.hypot(at.x - last.current.x, at.y - last.current.y) >= MIN_STEP) {
        sync.extend(at.x, at.y);
        last.current = at;
      }
    }
  }

  function up() {
    if (!last.current) return;
    last.current = null;
    if (tool === 'pen') sync.end();
  }

  return (
    <div ref={box} className="flex min-h-0 min-w-0 flex-1 items-center justify-center">
      <canvas
        ref={canvasRef}
        aria-label={label}
        role="img"
        data-whiteboard-canvas
        style={{ width: size.width, height: size.height }}
        className={`touch-none rounded-lg bg-white shadow-inner ${tool === 'eraser' ? 'cursor-cell' : 'cursor-crosshair'}`}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
    </div>
  );
}
