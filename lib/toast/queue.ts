// SPEC point 4, toasts: shown one after another, about 3 s (6 s for long ones), or until clicked.
export const TOAST_DURATION_MS = 3000;
export const LONG_TOAST_DURATION_MS = 6000;

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  durationMs: number;
}

export interface ToastInput {
  kind: ToastKind;
  message: string;
  long?: boolean;
}

export interface ToastQueue {
  /** The toast on screen, or undefined. */
  current: Toast | undefined;
  waiting: Toast[];
  nextId: number;
}

export const emptyQueue: ToastQueue = { current: undefined, waiting: [], nextId: 1 };

export function enqueue(queue: ToastQueue, input: ToastInput): ToastQueue {
  const toast: Toast = {
    id: queue.nextId,
    kind: input.kind,
    message: input.message,
    durationMs: input.long ? LONG_TOAST_DURATION_MS : TOAST_DURATION_MS,
  };
  if (!queue.current) return { current: toast, waiting: queue.waiting, nextId: toast.id + 1 };
  return { current: queue.current, waiting: [...queue.waiting, toast], nextId: toast.id + 1 };
}

/** Removes the toast `id` (timed out or clicked) and shows the next one. */
export function dismiss(queue: ToastQueue, id: number): ToastQueue {
  if (queue.current?.id !== id) return { ...queue, waiting: queue.waiting.filter((t) => t.id !== id) };
  const [next, ...rest] = queue.waiting;
  return { current: next, waiting: rest, nextId: queue.nextId };
}

/**
 * What an API answer shows (SPEC points 4 and 7): "ok" shows the success text, an error its
 * localized message, and authentication failures nothing (the logout rule handles those).
 */
export function toastForAnswer(answer: { status?: string; errorCode?: string; message?: string }, successText: string): ToastInput | null {
  if (answer.status === 'ok') return { kind: 'success', message: successText };
  if (answer.errorCode === 'authentication_error') return null;
  if (answer.status === 'error' && answer.message) return { kind: 'error', message: answer.message, long: true };
  return null;
}
