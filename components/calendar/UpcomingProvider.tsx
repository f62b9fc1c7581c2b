'use client';

import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { apiGet } from '@/lib/api/browser';
import type { OccurrenceView } from '@/lib/events/views/occurrence';

/** SPEC point 4 and 9: upcoming events are polled every 60 s. */
export const UPCOMING_POLL_MS = 60_000;

interface Upcoming {
  /** The meetings that have not ended in the next 30 days, by start; null before the first answer. */
  events: OccurrenceView[] | null;
  refresh: () => void;
}

const UpcomingContext = createContext<Upcoming>({ events: null, refresh: () => {} });

/**
 * Polls GET /api/events/upcoming while a user is logged in. An answer that the session is gone
 * logs out (the API client's authentication handler); a network failure keeps the last list.
 */
export function UpcomingProvider({ enabled, children }: { enabled: boolean; children: React.ReactNode }) {
  const [events, setEvents] = useState<OccurrenceView[] | null>(null);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    const load = async () => {
      const answer = await apiGet<OccurrenceView[]>('/api/events/upcoming');
      if (!cancelled && Array.isArray(answer)) setEvents(answer as OccurrenceView[]);
    };
    void load();
    const timer = window.setInterval(load, UPCOMING_POLL_MS);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
    };
  }, [enabled, tick]);

  return <UpcomingContext.Provider value={{ events, refresh }}>{children}</UpcomingContext.Provider>;
}

export function useUpcoming(): Upcoming {
  return useContext(UpcomingContext);
}

/** The next meeting that has not ended yet at `now`. */
export function nextMeeting(events: OccurrenceView[] | null, now = Date.now()): OccurrenceView | null {
  return events?.find((event) => event.to * 1000 > now) ?? null;
}
