'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { weekdayCodes, type CustomRepeat, type WeekdayCode } from '@/lib/event-rules/repeat';
import type { Draft } from '@/lib/schedule/draft';
import { addDays, addMonths, weekdayOf } from '@/lib/time/zoned';
import { Dialog } from '@/components/dialog/Dialog';
import { useWeekdayName } from './useRepeatText';

const FREQS = ['daily', 'weekly', 'monthly', 'annually'] as const;
const MAX_INTERVAL = 999;

/** The nth weekday of the start's month that the start is (-1 when it is the last one). */
function nthOf(date: string): number {
  const day = Number(date.slice(8, 10));
  const nextMonth = addMonths(`${date.slice(0, 8)}01`, 1);
  return addDays(date, 7) >= nextMonth ? -1 : Math.ceil(day / 7);
}

/**
 * The repeating picker (SPEC point 2): every N days, weeks (on chosen days), months (on a day of
 * the month or on the nth weekday) or years, ending never, on a date, or after N meetings.
 */
export function RepeatPickerDialog({ draft, onSave, onClose }: { draft: Draft; onSave: (rule: CustomRepeat) => void; onClose: () => void }) {
  const t = useTranslations('Schedule');
  const weekdayName = useWeekdayName();
  const startDay = weekdayCodes[weekdayOf(draft.date)]!;
  const dayOfMonth = Number(draft.date.slice(8, 10));
  const initial = draft.repeatCustom;
  const [freq, setFreq] = useState<CustomRepeat['freq']>(initial?.freq ?? 'weekly');
  const [intervalText, setIntervalText] = useState(String(initial?.interval ?? 1));
  const [weekdays, setWeekdays] = useState<WeekdayCode[]>(initial?.weekdays?.length ? initial.weekdays : [startDay]);
  const [monthly, setMonthly] = useState<'day' | 'nth'>(initial?.monthly?.mode ?? 'day');
  const [end, setEnd] = useState<'never' | 'until' | 'count'>(initial?.end?.type ?? 'never');
  const [until, setUntil] = useState(initial?.end?.type === 'until' ? initial.end.date : addMonths(draft.date, 3));
  const [count, setCount] = useState(String(initial?.end?.type === 'count' ? initial.end.count : 10));
  const [error, setError] = useState<string | null>(null);
  const intervalId = useId();
  const freqId = useId();
  const untilId = useId();
  const countId = useId();

  function save(event: React.FormEvent) {
    event.preventDefault();
    const every = Number(intervalText);
    if (!Number.isInteger(every) || every < 1 || every > MAX_INTERVAL) return setError(t('intervalInvalid', { max: MAX_INTERVAL }));
    if (freq === 'weekly' && !weekdays.length) return setError(t('weekdaysMissing'));
    if (end === 'until' && (!until || until < draft.date)) return setError(t('untilInvalid'));
    const times = Number(count);
    if (end === 'count' && (!Number.isInteger(times) || times < 1 || times > 100_000)) return setError(t('countInvalid'));
    const nth = nthOf(draft.date);
    onSave({
      freq,
      interval: every,
      ...(freq === 'weekly' ? { weekdays: weekdayCodes.filter((code) => weekdays.includes(code)) } : {}),
      ...(freq === 'monthly'
        ? { monthly: monthly === 'day' ? { mode: 'day' as const, day: dayOfMonth } : { mode: 'nth' as const, n: nth, weekday: startDay } }
        : {}),
      end: end === 'until' ? { type: 'until', date: until } : end === 'count' ? { type: 'count', count: times } : { type: 'never' },
    });
  }

  return (
    <Dialog title={t('repeatPicker')} onClose={onClose} size="max-w-md">
      <form onSubmit={save} noValidate className="flex flex-col gap-5">
        <div className="flex items-end gap-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={intervalId} className="text-sm font-medium text-slate-700">
              {t('repeatEvery')}
            </label>
            <input
              id={intervalId}
              type="number"
              min={1}
              max={MAX_INTERVAL}
              value={intervalText}
              onChange={(e) => setIntervalText(e.target.value)}
              className="w-24 rounded-md border border-slate-300 px-3 py-2"
            />
          </div>
          <label htmlFor={freqId} className="sr-only">
            {t('repeatUnit')}
          </label>
          <select
            id={freqId}
            value={freq}
            onChange={(e) => setFreq(e.target.value as CustomRepeat['freq'])}
            className="rounded-md border border-slate-300 bg-white px-3 py-2"
          >
            {FREQS.map((f) => (
              <option key={f} value={f}>
                {t(`units.${f}`, { count: Number(intervalText) || 1 })}
              </option>
            ))}
          </select>
        </div>

        {freq === 'weekly' && (
          <fieldset className="flex flex-wrap gap-2">
            <legend className="mb-1 text-sm font-medium text-slate-700">{t('repeatOn')}</legend>
            {weekdayCodes.map((code) => (
              <label key={code} className="flex items-center gap-1 rounded-md border border-slate-300 px-2 py-1 text-sm">
                <input
                  type="checkbox"
                  checked={weekdays.includes(code)}
                  onChange={(e) => setWeekdays(e.target.checked ? [...weekdays, code] : weekdays.filter((d) => d !== code))}
                />
                {weekdayName(code)}
              </label>
            ))}
          </fieldset>
        )}

        {freq === 'monthly' && (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-slate-700">{t('repeatOn')}</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="monthly" checked={monthly === 'day'} onChange={() => setMonthly('day')} />
              {t('onDayOfMonth', { day: dayOfMonth })}
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="monthly" checked={monthly === 'nth'} onChange={() => setMonthly('nth')} />
              {t('onNthWeekday', {
                nth: t(`nth.${nthOf(draft.date) === -1 ? 'last' : String(nthOf(draft.date))}` as 'nth.1'),
                weekday: weekdayName(startDay),
              })}
            </label>
          </fieldset>
        )}

        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-700">{t('ends')}</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="end" checked={end === 'never'} onChange={() => setEnd('never')} />
            {t('endsNever')}
          </label>
          <div className="flex items-center gap-2">
            <input id={`${untilId}-radio`} type="radio" name="end" checked={end === 'until'} onChange={() => setEnd('until')} />
            <label htmlFor={`${untilId}-radio`}>{t('endsOn')}</label>
            <label htmlFor={untilId} className="sr-only">
              {t('endDate')}
            </label>
            <input
              id={untilId}
              type="date"
              value={until}
              min={draft.date}
              disabled={end !== 'until'}
              onChange={(e) => setUntil(e.target.value)}
              className="rounded-md border border-slate-300 px-2 py-1"
            />
          </div>
          <div className="flex items-center gap-2">
            <input id={`${countId}-radio`} type="radio" name="end" checked={end === 'count'} onChange={() => setEnd('count')} />
            <label htmlFor={`${countId}-radio`}>{t('endsAfter')}</label>
            <label htmlFor={countId} className="sr-only">
              {t('endCount')}
            </label>
            <input
              id={countId}
              type="number"
              min={1}
              value={count}
              disabled={end !== 'count'}
              onChange={(e) => setCount(e.target.value)}
              className="w-24 rounded-md border border-slate-300 px-2 py-1"
            />
            <span>{t('occurrences')}</span>
          </div>
        </fieldset>

        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className="button-secondary" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" className="button-primary">
            {t('done')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
