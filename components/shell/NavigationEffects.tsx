'use client';

import { useEffect } from 'react';
import { usePathname } from 'next/navigation';
import { parseHistory, pushRoute, ROUTE_HISTORY_KEY } from '@/lib/navigation/history';

/**
 * The page the browser loaded as a document, until the first navigation inside it. The browser
 * placed that page itself (at the top, at its #fragment, or where the person was before a reload
 * or Back), and scrolling it to the top once React hydrated moved it under their pointer: the
 * account dialog's "Manage plan" opened /settings#billing at the plan, then jumped to the top.
 * Kept per document, not per component: each frame (shell, public, account) has its own.
 */
const documentLoad: { pathname: string | null } = { pathname: typeof window === 'undefined' ? null : window.location.pathname };

/** SPEC point 2: scroll to the top on every navigation and keep the last 10 routes. */
export function NavigationEffects() {
  const pathname = usePathname();
  useEffect(() => {
    if (pathname !== documentLoad.pathname) {
      documentLoad.pathname = null; // left: coming back to it is a navigation like any other
      window.scrollTo(0, 0);
    }
    try {
      const history = pushRoute(parseHistory(sessionStorage.getItem(ROUTE_HISTORY_KEY)), pathname);
      sessionStorage.setItem(ROUTE_HISTORY_KEY, JSON.stringify(history));
    } catch {
      // Storage can be disabled (private mode); the history is a convenience.
    }
  }, [pathname]);
  return null;
}
