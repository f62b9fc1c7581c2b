'use client';

import { useId } from 'react';
import { useTranslations } from 'next-intl';
import { ROOM_MEDIA_ROUTES, type RoomMediaRoute } from '@/lib/meeting/protocol';
import { SFU_FROM } from '@/lib/meeting/client/call/route-pin';

const LABELS = { auto: 'mediaRouteAuto', mesh: 'mediaRouteMesh', sfu: 'mediaRouteSfu' } as const;

/**
 * "Calls in this room" (issue 38): automatic, always peer to peer, or always through the server.
 * Shown only on a server with an SFU (RoomDialog, issue 48): without one every call is peer to
 * peer and there is nothing to choose.
 */
export function MediaRouteChoice({ value, onChange }: { value: RoomMediaRoute; onChange: (value: RoomMediaRoute) => void }) {
  const t = useTranslations('Rooms');
  const hintId = useId();
  return (
    <fieldset className="flex flex-col gap-1" aria-describedby={hintId}>
      <legend className="mb-1 text-sm font-medium text-slate-700">{t('mediaRoute')}</legend>
      {ROOM_MEDIA_ROUTES.map((route) => (
        <label key={route} className="flex items-center gap-2">
          <input type="radio" name="mediaRoute" value={route} checked={value === route} onChange={() => onChange(route)} />
          {route === 'auto' ? t('mediaRouteAuto', { count: SFU_FROM }) : t(LABELS[route])}
        </label>
      ))}
      <p id={hintId} className="text-xs text-slate-500">
        {t('mediaRouteHint')}
      </p>
    </fieldset>
  );
}
