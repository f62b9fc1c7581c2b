'use client';

import { useId, useMemo, useState } from 'react';
import { useTranslations } from 'next-intl';
import { formatOffset, offsetMinutes } from '@/lib/time/timezones';
import { Dialog } from '@/components/dialog/Dialog';

/** The time-zone picker modal (SPEC point 2): every IANA zone with its offset now, searchable. */
export function TimezonePickerDialog({ value, onChoose, onClose }: { value: string; onChoose: (timezone: string) => void; onClose: () => void }) {
  const t = useTranslations('Schedule');
  const searchId = useId();
  const [query, setQuery] = useState('');
  const zones = useMemo(() => {
    const now = new Date();
    // "UTC" is shown as Europe/London (SPEC point 4).
    return Intl.supportedValuesOf('timeZone')
      .filter((zone) => zone !== 'UTC')
      .map((zone) => ({ zone, label: zone.replaceAll('_', ' '), offset: formatOffset(offsetMinutes(zone, now)) }));
  }, []);
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const shown = zones.filter(({ label, offset }) => words.every((w) => `${label} ${offset}`.toLowerCase().includes(w)));

  return (
    <Dialog title={t('timezonePicker')} onClose={onClose} size="max-w-md">
      <label htmlFor={searchId} className="text-sm font-medium text-slate-700">
        {t('timezoneSearch')}
      </label>
      <input
        id={searchId}
        type="search"
        autoFocus
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
      />
      <ul className="mt-3 max-h-80 overflow-y-auto" aria-label={t('timezone')}>
        {shown.map(({ zone, label, offset }) => (
          <li key={zone}>
            <button
              type="button"
              aria-pressed={zone === value}
              onClick={() => onChoose(zone)}
              className="flex w-full justify-between rounded px-3 py-2 text-left hover:bg-slate-100 aria-pressed:bg-brand aria-pressed:text-white"
            >
              <span>{label}</span>
              <span className="text-xs opacity-80">{offset}</span>
            </button>
          </li>
        ))}
        {!shown.length && <li className="px-3 py-2 text-slate-600">{t('timezoneNone')}</li>}
      </ul>
    </Dialog>
  );
}
