'use client';

import { useEffect, useState } from 'react';
import { apiGet } from '@/lib/api/browser';
import { expandCompact, isCompactCalendar, type CalendarOccurrence } from '@/lib/calendar/compact';

export type CalendarData = { state: 'loading' } | { state: 'failed'; retry: () => void } | { state: 'ready'; occurrences: CalendarOccurrence[] };

/**
 * The occurrences of [start, end) (unix s) from GET /api/events/calendar in the compact form,
 * expanded here. The browser keeps each answer with its ETag and asks again with it each time
 * (Cache-Control: private, no-cache), so an unchanged calendar costs a 304 and no expansion on
 * the server. `rendered` changes whenever the page's server part renders again (after a change,
 * useApiFeedback refreshes it): the window is then asked for again, keeping what is shown until
 * the answer is there.
 */
export function useCalendarOccurrences(start: number, end: number, rendered: number): CalendarData {
  const key = `${start}-${end}`;
  const [answer, setAnswer] = useState<{ key: string; occurrences: CalendarOccurrence[] | null } | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    void apiGet(`/api/events/calendar?start=${start}&end=${end}&form=compact`).then((data) => {
      if (cancelled) return;
      setAnswer({ key: `${start}-${end}`, occurrences: isCompactCalendar(data) ? expandCompact(data) : null });
    });
    return () => {
      cancelled = true;
    };
  }, [start, end, rendered, attempt]);

  if (answer?.key !== key) return { state: 'loading' };
  if (!answer.occurrences)
    return {
      state: 'failed',
      retry: () => {
        setAnswer(null);
        setAttempt((n) => n + 1);
      },
    };
  return { state: 'ready', occurrences: answer.occurrences };
}
