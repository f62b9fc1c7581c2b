'use client';

import { useId } from 'react';
import { useTranslations } from 'next-intl';

export const MIN_ROOMS = 1;
export const MAX_ROOMS = 30;

/** The number of rooms, 1 to 30 (SPEC point 9), with the plan it makes. */
export function RoomsInput({ value, onChange }: { value: number; onChange: (rooms: number) => void }) {
  const t = useTranslations('Billing');
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {t('roomsLabel')}
      </label>
      <input
        id={id}
        name="rooms"
        type="number"
        inputMode="numeric"
        min={MIN_ROOMS}
        max={MAX_ROOMS}
        step={1}
        value={value}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          const rooms = Math.round(Number(event.target.value));
          onChange(Number.isFinite(rooms) ? Math.min(MAX_ROOMS, Math.max(MIN_ROOMS, rooms)) : MIN_ROOMS);
        }}
        className="w-28 rounded-md border border-slate-300 px-3 py-2"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {t('roomsHint')}
      </p>
    </div>
  );
}
