'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useNotificationText } from './useNotificationText';
import { hasDuplicateReminder } from '@/lib/events/rules/checks';
import { repeatTypes, type RepeatType } from '@/lib/events/rules/repeat';
import { SelectField } from '@/components/forms/SelectField';
import { useErrorText } from '@/components/forms/useErrorText';
import { useRepeatText } from './useRepeatText';
import type { StepProps } from './types';
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
