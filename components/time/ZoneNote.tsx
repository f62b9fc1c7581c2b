'use client';

import { useTranslations } from 'next-intl';
import { zoneName, zonesDiffer } from '@/lib/time/clock';
import { useBrowserZone, useDisplayZone } from './useDisplayZone';

/**
 * "Times in Europe/London", once per view, when the times shown are in a zone whose clock is not
 * the browser's; nothing when they agree (or on the server, which does not know the browser).
 */
export function ZoneNote({ zone, className = 'text-xs text-slate-500' }: { zone?: string; className?: string }) {
  const t = useTranslations('Display');
  const displayZone = useDisplayZone();
  const browser = useBrowserZone();
  const shown = zone ?? displayZone;
  if (!browser || !zonesDiffer(shown, browser)) return null;
  return (
    <p className={className} data-testid="zone-note">
      {t('timesIn', { zone: zoneName(shown) })}
    </p>
  );
}
