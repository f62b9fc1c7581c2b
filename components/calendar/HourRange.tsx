'use client';

import { useId, useMemo, useSyncExternalStore } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { formatMinutesOfDay } from '@/lib/time/clock';

export interface Hours {
  from: number;
  to: number;
}

const DEFAULT_HOURS: Hours = { from: 7, to: 21 };
const STORAGE_KEY = 'enclave.calendar.hours';
const listeners = new Set<() => void>();

function isHours(value: unknown): value is Hours {
  const hours = value as Hours | null;
  return Number.isInteger(hours?.from) && Number.isInteger(hours?.to) && hours!.from >= 0 && hours!.to <= 24 && hours!.from < hours!.to;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/** The range of hours the day and week views show, kept in this browser. */
export function useHourRange(): [Hours, (hours: Hours) => void] {
  const saved = useSyncExternalStore(
    subscribe,
    () => window.localStorage.getItem(STORAGE_KEY),
    () => null,
  );
  const hours = useMemo(() => {
    try {
      const parsed: unknown = JSON.parse(saved ?? 'null');
      return isHours(parsed) ? parsed : DEFAULT_HOURS;
    } catch {
      return DEFAULT_HOURS;
    }
  }, [saved]);
  const save = (next: Hours) => {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    for (const listener of listeners) listener();
  };
  return [hours, save];
}

/** The from/to time-of-day range of the calendar (SPEC point 2). */
export function HourRange({ value, onChange }: { value: Hours; onChange: (hours: Hours) => void }) {
  const t = useTranslations('Calendar');
  const locale = useLocale();
  const fromId = useId();
  const toId = useId();
  const option = (hour: number) => (
    <option key={hour} value={hour}>
      {formatMinutesOfDay(hour * 60, locale)}
    </option>
  );
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={fromId}>{t('from')}</label>
      <select
        id={fromId}
        value={value.from}
        onChange={(event) => onChange({ from: Number(event.target.value), to: value.to })}
        className="rounded-md border border-slate-300 bg-white px-2 py-2"
      >
        {Array.from({ length: value.to }, (_, hour) => option(hour))}
      </select>
      <label htmlFor={toId}>{t('to')}</label>
      <select
        id={toId}
        value={value.to}
        onChange={(event) => onChange({ from: value.from, to: Number(event.target.value) })}
        className="rounded-md border border-slate-300 bg-white px-2 py-2"
      >
        {Array.from({ length: 24 - value.from }, (_, i) => option(value.from + 1 + i))}
      </select>
    </div>
  );
}
