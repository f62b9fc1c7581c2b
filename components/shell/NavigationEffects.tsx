'use client';

import { useEffect } from 'react';
import { usePathname } from 'next/navigation';
import { parseHistory, pushRoute, ROUTE_HISTORY_KEY } from '@/lib/navigation/history';

/** SPEC point 2: scroll to the top on every navigation and keep the last 10 routes. */
export function NavigationEffects() {
  const pathname = usePathname();
  useEffect(() => {
    window.scrollTo(0, 0);
    try {
      const history = pushRoute(parseHistory(sessionStorage.getItem(ROUTE_HISTORY_KEY)), pathname);
      sessionStorage.setItem(ROUTE_HISTORY_KEY, JSON.stringify(history));
    } catch {
      // Storage can be disabled (private mode); the history is a convenience.
    }
  }, [pathname]);
  return null;
}
