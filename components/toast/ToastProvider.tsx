'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useReducer } from 'react';
import { useTranslations } from 'next-intl';
import { dismiss, emptyQueue, enqueue, type ToastInput, type ToastQueue } from '@/lib/toast/queue';

type Action = { type: 'add'; input: ToastInput } | { type: 'dismiss'; id: number };

function reducer(queue: ToastQueue, action: Action): ToastQueue {
  return action.type === 'add' ? enqueue(queue, action.input) : dismiss(queue, action.id);
}

const ToastContext = createContext<((input: ToastInput) => void) | null>(null);

/** Shows one toast at a time; each leaves after its time or when clicked. */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const t = useTranslations('Toast');
  const [queue, dispatch] = useReducer(reducer, emptyQueue);
  const show = useCallback((input: ToastInput) => dispatch({ type: 'add', input }), []);
  const current = queue.current;

  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => dispatch({ type: 'dismiss', id: current.id }), current.durationMs);
    return () => clearTimeout(timer);
  }, [current]);

  const colors = {
    success: 'bg-emerald-700',
    error: 'bg-red-700',
    info: 'bg-slate-800',
  } as const;

  return (
    <ToastContext.Provider value={show}>
      {children}
      <div aria-label={t('region')} role="region" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4">
        <div role={current?.kind === 'error' ? 'alert' : 'status'} aria-live={current?.kind === 'error' ? 'assertive' : 'polite'}>
          {current && (
            <button
              type="button"
              key={current.id}
              onClick={() => dispatch({ type: 'dismiss', id: current.id })}
              className={`pointer-events-auto max-w-md rounded-lg px-4 py-3 text-left text-white shadow-lg ${colors[current.kind]}`}
              aria-describedby={`toast-hint-${current.id}`}
              data-testid="toast"
            >
              {current.message}
              <span id={`toast-hint-${current.id}`} className="sr-only">
                {t('dismiss')}
              </span>
            </button>
          )}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

export function useToast() {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast must be used inside ToastProvider');
  return useMemo(
    () => ({
      show,
      success: (message: string) => show({ kind: 'success', message }),
      error: (message: string) => show({ kind: 'error', message, long: true }),
    }),
    [show],
  );
}
