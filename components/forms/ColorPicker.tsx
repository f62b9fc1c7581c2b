'use client';

import { useId } from 'react';
import { useTranslations } from 'next-intl';
import { colorOf, COLORS } from '@/lib/colors';

/** SPEC point 9: one of 20 colours, as a group of radio buttons (arrow keys move between them). */
export function ColorPicker({ value, onChange }: { value: number | undefined; onChange: (color: number) => void }) {
  const t = useTranslations('Colors');
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{t('label')}</legend>
      <div className="mt-1 flex flex-wrap gap-2">
        {COLORS.map((hex, index) => {
          const color = index + 1;
          const label = t(String(color) as '1');
          return (
            <label key={color} title={label} className="cursor-pointer">
              <input type="radio" name={name} value={color} checked={value === color} onChange={() => onChange(color)} className="peer sr-only" />
              <span
                aria-hidden="true"
                style={{ backgroundColor: hex }}
                className="block h-7 w-7 rounded-full border-2 border-white ring-2 ring-transparent peer-checked:ring-slate-900 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand"
              />
              <span className="sr-only">{label}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The small colour dot shown beside a room, contact or group. */
export function ColorDot({ color }: { color: number }) {
  return <span aria-hidden="true" style={{ backgroundColor: colorOf(color) }} className="inline-block h-3 w-3 shrink-0 rounded-full" />;
}
