'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { MAX_ROOMS, MIN_ROOMS } from '@/lib/billing/state';

const parse = (text: string) => {
  const rooms = Number(text);
  return Number.isInteger(rooms) && rooms >= MIN_ROOMS && rooms <= MAX_ROOMS ? rooms : null;
};

/**
 * The number of rooms, 1 to 30 (SPEC point 9). The field keeps what the person types (they may
 * clear it to type another number); only a whole number in range counts, and leaving the field
 * puts back the last one that did.
 */
export function RoomsInput({ value, onChange }: { value: number; onChange: (rooms: number) => void }) {
  const t = useTranslations('Billing');
  const id = useId();
  const [text, setText] = useState(String(value));
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
        value={text}
        aria-describedby={`${id}-hint`}
        aria-invalid={parse(text) === null ? true : undefined}
        onChange={(event) => {
          setText(event.target.value);
          const rooms = parse(event.target.value);
          if (rooms !== null) onChange(rooms);
        }}
        onBlur={() => setText(String(parse(text) ?? value))}
        className="w-28 rounded-md border border-slate-300 px-3 py-2 aria-invalid:border-red-600"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {t('roomsHint')}
      </p>
    </div>
  );
}
