'use client';

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ASPECT, LIMITS, SCALE, type Shape, type Stroke } from '@/lib/meeting/client/whiteboard/board-model';
import type { WhiteboardSync } from '@/lib/meeting/client/whiteboard/board-sync';
import { strokesNear } from '@/lib/meeting/client/whiteboard/hit-test';
import { drawBoard } from './draw-board';

export type Tool = 'pen' | 'eraser' | Shape;

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
  textSize,
  label,
  textLabel,
  canvasRef,
  onFull,
}: {
  sync: WhiteboardSync;
  tool: Tool;
  colour: number;
  width: number;
  textSize: number;
  label: string;
  textLabel: string;
  canvasRef: React.RefObject<HTMLCanvasElement | null>;
  onFull: () => void;
}) {
  const [box, size] = useFittedSize();
  const last = useRef<{ x: number; y: number } | null>(null);
  /** A shape being dragged out: drawn here only, sent whole when the pointer lifts. */
  const preview = useRef<Stroke | null>(null);
  const repaint = useRef<() => void>(() => undefined);
  /** Where a text goes, while its input is open. */
  const [typing, setTyping] = useState<{ x: number; y: number } | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !size.width) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(size.width * ratio);
    canvas.height = Math.round(size.height * ratio);
    let frame = 0;
    const paint = () => {
      frame = 0;
      const shown = sync.board.visible();
      drawBoard(canvas, preview.current ? [...shown, preview.current] : shown);
    };
    paint();
    repaint.current = () => void (frame ||= requestAnimationFrame(paint));
    const unsubscribe = sync.subscribe(() => repaint.current());
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
    const at = point(event.currentTarget, event);
    if (tool === 'text') {
      // No mousedown follows (it would take the focus from the text's input as it opens).
      event.preventDefault();
      setTyping(at);
      return;
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    last.current = at;
    if (tool === 'eraser') erase(at);
    else if (tool !== 'pen') preview.current = { a: 'preview', n: Number.MAX_SAFE_INTEGER, c: colour, w: width, p: [at.x, at.y, at.x, at.y], k: tool };
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
      else if (preview.current) {
        preview.current = { ...preview.current, p: [last.current.x, last.current.y, at.x, at.y] };
        repaint.current();
      } else if (Math.hypot(at.x - last.current.x, at.y - last.current.y) >= MIN_STEP) {
        sync.extend(at.x, at.y);
        last.current = at;
      }
    }
  }

  function up() {
    if (!last.current) return;
    last.current = null;
    if (tool === 'pen') sync.end();
    const shape = preview.current;
    preview.current = null;
    repaint.current();
    if (shape?.k && !sync.place(shape.k, shape.p, shape.c, shape.w)) onFull();
  }

  function commitText(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape') return setTyping(null);
    if (event.key !== 'Enter' || !typing) return;
    const text = event.currentTarget.value.trim();
    if (text && !sync.place('text', [typing.x, typing.y], colour, textSize, text)) onFull();
    setTyping(null);
  }

  return (
    <div ref={box} className="flex min-h-0 min-w-0 flex-1 items-center justify-center">
      <div className="relative" style={{ width: size.width, height: size.height }}>
        <canvas
          ref={canvasRef}
          aria-label={label}
          role="img"
          data-whiteboard-canvas
          style={{ width: size.width, height: size.height }}
          className={`touch-none rounded-lg bg-white shadow-inner ${tool === 'eraser' ? 'cursor-cell' : tool === 'text' ? 'cursor-text' : 'cursor-crosshair'}`}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
        />
        {typing && (
          <input
            autoFocus
            aria-label={textLabel}
            maxLength={LIMITS.textChars}
            data-whiteboard-text
            className="absolute w-48 max-w-[60%] rounded border border-sky-500 bg-white px-1 text-sm text-slate-900"
            style={{ left: `${(typing.x / SCALE) * 100}%`, top: `${(typing.y / SCALE) * 100}%` }}
            onKeyDown={commitText}
            onBlur={() => setTyping(null)}
          />
        )}
      </div>
    </div>
  );
}
