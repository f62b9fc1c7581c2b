'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { useNotificationText } from './useNotificationText';
import { hasDuplicateReminder } from '@/lib/event-rules/checks';
import { repeatTypes, type RepeatType } from '@/lib/event-rules/repeat';
import { SelectField } from '@/components/forms/SelectField';
import { useErrorText } from '@/components/forms/useErrorText';
import { useRepeatText } from './useRepeatText';
import type { StepProps } from './types';
import { addMonths } from '@/lib/time/zoned';
import type { RepeatEnd } from '@/lib/event-rules/repeat';
import { LazyDialog, lazyComponent } from '@/components/dialog/lazy';

// The notification picker loads when opened.
const NotificationsDialog = lazyComponent(() => import('./NotificationsDialog').then((m) => m.NotificationsDialog));

// The custom-repeat picker loads when opened.
const RepeatPickerDialog = lazyComponent(() => import('./RepeatPickerDialog').then((m) => m.RepeatPickerDialog));

/** Step 3: how the meeting repeats (the repeating picker for custom rules) and its reminders. */
export function StepRepeat({ draft, errors, onChange }: StepProps) {
  const t = useTranslations('Schedule');
  const notificationText = useNotificationText();
  const errorText = useErrorText();
  const repeatText = useRepeatText();
  const [picking, setPicking] = useState(false);
  const [adding, setAdding] = useState(false);
  const endId = useId();
  const end: RepeatEnd = draft.repeatEnd ?? { type: 'never' };
  const plainRepeat = draft.repeatType !== 'none' && draft.repeatType !== 'custom';
  const untilDate = end.type === 'until' ? end.date : addMonths(draft.date, 3);
  const countValue = end.type === 'count' ? (Number.isFinite(end.count) ? String(end.count) : '') : '10';
  const endError = errors.repeatEnd ? (end.type === 'until' ? t('untilInvalid') : t('countInvalid')) : null;
  // notification_not_added without a period listed twice: a reminder falls before now (the wizard
  // or the server said so); the catalogue's text speaks of duplicates only, so explain it here.
  const tooLate = errors.notifications === 'notification_not_added' && !hasDuplicateReminder(draft.notifications);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <SelectField
          label={t('repeat')}
          value={draft.repeatType}
          error={errors.repeatCustom}
          onChange={(e) => {
            const repeatType = e.target.value as RepeatType;
            onChange({ repeatType });
            if (repeatType === 'custom') setPicking(true);
          }}
        >
          {repeatTypes.map((type) => (
            <option key={type} value={type}>
              {t(`repeatTypes.${type}`)}
            </option>
          ))}
        </SelectField>
        {plainRepeat && (
          <fieldset className="flex flex-col gap-2" aria-describedby={endError ? `${endId}-error` : undefined}>
            <legend className="mb-1 text-sm font-medium text-slate-700">{t('ends')}</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="repeatEnd" checked={end.type === 'never'} onChange={() => onChange({ repeatEnd: { type: 'never' } })} />
              {t('endsNever')}
            </label>
            <div className="flex flex-wrap items-center gap-2">
              <input
                id={`${endId}-until-radio`}
                type="radio"
                name="repeatEnd"
                checked={end.type === 'until'}
                onChange={() => onChange({ repeatEnd: { type: 'until', date: untilDate } })}
              />
              <label htmlFor={`${endId}-until-radio`}>{t('endsOn')}</label>
              <label htmlFor={`${endId}-until`} className="sr-only">
                {t('endDate')}
              </label>
              <input
                id={`${endId}-until`}
                type="date"
                value={untilDate}
                min={draft.date}
                disabled={end.type !== 'until'}
                onChange={(e) => onChange({ repeatEnd: { type: 'until', date: e.target.value } })}
                className="rounded-md border border-slate-300 px-2 py-1"
              />
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <input
                id={`${endId}-count-radio`}
                type="radio"
                name="repeatEnd"
                checked={end.type === 'count'}
                onChange={() => onChange({ repeatEnd: { type: 'count', count: Number(countValue) || 10 } })}
              />
              <label htmlFor={`${endId}-count-radio`}>{t('endsAfter')}</label>
              <label htmlFor={`${endId}-count`} className="sr-only">
                {t('endCount')}
              </label>
              <input
                id={`${endId}-count`}
                type="number"
                min={1}
                value={countValue}
                disabled={end.type !== 'count'}
                onChange={(e) => onChange({ repeatEnd: { type: 'count', count: e.target.value === '' ? Number.NaN : Number(e.target.value) } })}
                className="w-24 rounded-md border border-slate-300 px-2 py-1"
              />
              <span>{t('occurrences')}</span>
            </div>
            {endError && (
              <p id={`${endId}-error`} role="alert" className="text-sm text-red-700">
                {endError}
              </p>
            )}
          </fieldset>
        )}
        {draft.repeatType === 'custom' && (
          <div className="flex items-center justify-between gap-2 rounded-md bg-slate-50 px-3 py-2 text-sm">
            <span>{draft.repeatCustom ? repeatText(draft) : t('customMissing')}</span>
            <button type="button" className="button-secondary" onClick={() => setPicking(true)}>
              {t('editRule')}
            </button>
          </div>
        )}
      </div>

      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-medium text-slate-700">{t('notifications')}</h3>
        {draft.notifications.length === 0 && <p className="text-sm text-slate-600">{t('noNotifications')}</p>}
        <ul className="flex flex-col gap-1" aria-label={t('notifications')}>
          {draft.notifications.map((n) => (
            <li key={`${n.time}${n.timeType}`} className="flex items-center justify-between rounded-md bg-slate-50 px-3 py-2 text-sm">
              {notificationText(n)}
              <button
                type="button"
                className="rounded px-2 text-slate-600 hover:bg-slate-200"
                aria-label={t('removeNotification', { when: notificationText(n) })}
                onClick={() => onChange({ notifications: draft.notifications.filter((m) => m !== n) })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="button-secondary self-start" onClick={() => setAdding(true)}>
          {t('addNotification')}
        </button>
        {errors.notifications && (
          <p role="alert" className="text-sm text-red-700">
            {tooLate ? t('notificationTooLate') : errorText(errors.notifications)}
          </p>
        )}
      </div>

      {picking && (
        <LazyDialog>
          <RepeatPickerDialog
            draft={draft}
            onSave={(repeatCustom) => {
              onChange({ repeatType: 'custom', repeatCustom });
              setPicking(false);
            }}
            onClose={() => {
              if (!draft.repeatCustom) onChange({ repeatType: 'none' });
              setPicking(false);
            }}
          />
        </LazyDialog>
      )}
      {adding && (
        <LazyDialog>
          <NotificationsDialog
            notifications={draft.notifications}
            onAdd={(n) => onChange({ notifications: [...draft.notifications, n] })}
            onClose={() => setAdding(false)}
          />
        </LazyDialog>
      )}
    </div>
  );
}
