import { dismiss, emptyQueue, enqueue, LONG_TOAST_DURATION_MS, TOAST_DURATION_MS, toastForAnswer } from '@/lib/toast/queue';

describe('SPEC point 4: toasts', () => {
  it('shows toasts one after another', () => {
    let queue = enqueue(emptyQueue, { kind: 'success', message: 'first' });
    queue = enqueue(queue, { kind: 'error', message: 'second' });
    expect(queue.current?.message).toBe('first');
    expect(queue.waiting.map((t) => t.message)).toEqual(['second']);
    queue = dismiss(queue, queue.current!.id);
    expect(queue.current?.message).toBe('second');
    queue = dismiss(queue, queue.current!.id);
    expect(queue.current).toBeUndefined();
  });

  it('lasts about 3 s, or 6 s for long ones', () => {
    expect(TOAST_DURATION_MS).toBe(3000);
    expect(LONG_TOAST_DURATION_MS).toBe(6000);
    const queue = enqueue(emptyQueue, { kind: 'info', message: 'x', long: true });
    expect(queue.current?.durationMs).toBe(6000);
    expect(enqueue(emptyQueue, { kind: 'info', message: 'x' }).current?.durationMs).toBe(3000);
  });

  it('dismissing a waiting toast leaves the one on screen', () => {
    let queue = enqueue(emptyQueue, { kind: 'info', message: 'a' });
    queue = enqueue(queue, { kind: 'info', message: 'b' });
    queue = dismiss(queue, queue.waiting[0]!.id);
    expect(queue.current?.message).toBe('a');
    expect(queue.waiting).toEqual([]);
  });

  it('an answer with status ok shows "Success"', () => {
    expect(toastForAnswer({ status: 'ok' }, 'Success')).toEqual({ kind: 'success', message: 'Success' });
  });

  it('an error shows its localized message', () => {
    expect(toastForAnswer({ status: 'error', errorCode: 'room_max_limit', message: 'Limit' }, 'Success')).toEqual({
      kind: 'error',
      message: 'Limit',
      long: true,
    });
  });

  it('authentication failures are not shown', () => {
    expect(toastForAnswer({ status: 'error', errorCode: 'authentication_error', message: 'Log in' }, 'Success')).toBeNull();
  });
});
