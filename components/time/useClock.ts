'use client';

import { useLocale } from 'next-intl';
import { clockFormat } from '@/lib/time/clock';
import { useDisplayZone } from './useDisplayZone';

type Instant = Date | number | string;
const toDate = (at: Instant) => (at instanceof Date ? at : new Date(at));

/** Times as the person reads them: in their zone (useDisplayZone) and their language's clock. */
export function useClock() {
  const locale = useLocale();
  const zone = useDisplayZone();
  return {
    zone,
    /** 14:05 (de), 2:05 PM (en) */
    time: (at: Instant) => clockFormat(locale, zone).format(toDate(at)),
    /** 02.03.2026, 14:05 (de), Mar 2, 2026, 2:05 PM (en) */
    dateTime: (at: Instant) => clockFormat(locale, zone, 'medium').format(toDate(at)),
  };
}
