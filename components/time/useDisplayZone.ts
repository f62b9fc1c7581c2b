'use client';

import { useSyncExternalStore } from 'react';
import { useTimeZone } from 'next-intl';
import { useApp } from '@/components/AppContext';
import { browserZone } from '@/lib/time/clock';
import { normalizeTimezone } from '@/lib/time/timezones';

const never = () => () => undefined;

/** The browser's zone; null while rendering on the server, which cannot know it. */
export function useBrowserZone(): string | null {
  return useSyncExternalStore(never, browserZone, () => null);
}

/**
 * The zone times are shown in (docs/decisions.md, "One way to tell time"): the account's for a
 * logged-in person, the browser's for a guest (the request's zone until the browser is known).
 */
export function useDisplayZone(): string {
  const { user } = useApp();
  const browser = useBrowserZone();
  const requestZone = useTimeZone();
  if (user) return normalizeTimezone(user.timezone);
  return browser ?? normalizeTimezone(requestZone);
}
