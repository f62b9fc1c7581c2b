'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useNotificationText } from './useNotificationText';
import { notificationChoices, notificationKey } from '@/lib/event-rules/limits';
import type { DraftNotification } from '@/lib/schedule/draft';
import { SelectField } from '@/components/forms/SelectField';
import { Dialog } from '@/components/dialog/Dialog';

/**
 * The meeting-notifications modal (SPEC point 2): an e-mail 15 min, 30 min, 1 h, 3 h or 1 day
 * before; the same period twice is 'Not added, such notification was already added'.
 */
export function NotificationsDialog({
  notifications,
  onAdd,
  onClose,
}: {
  notifications: DraftNotification[];
  onAdd: (notification: DraftNotification) => void;
  onClose: () => void;
}) {
  const t = useTranslations('Schedule');
  const notificationText = useNotificationText();
  const errors = useTranslations('Errors');
  const [choice, setChoice] = useState(0);
  const [error, setError] = useState<string | null>(null);

  function add(event: React.FormEvent) {
    event.preventDefault();
    const picked = notificationChoices[choice]!;
    const notification: DraftNotification = { type: 'email', time: picked.time, timeType: picked.timeType };
    if (notifications.some((n) => notificationKey(n) === notificationKey(notification))) {
      return setError(errors('notification_not_added'));
    }
    onAdd(notification);
    onClose();
  }

  return (
    <Dialog title={t('notificationsTitle')} onClose={onClose} size="max-w-sm">
      <form onSubmit={add} className="flex flex-col gap-4">
        <SelectField
          label={t('notificationWhen')}
          value={choice}
          error={error ?? undefined}
          onChange={(e) => {
            setChoice(Number(e.target.value));
            setError(null);
          }}
        >
          {notificationChoices.map((c, index) => (
            <option key={index} value={index}>
              {notificationText(c)}
            </option>
          ))}
        </SelectField>
        <p className="text-sm text-slate-600">{t('notificationByEmail')}</p>
        <div className="flex justify-end gap-2">
          <button type="button" className="button-secondary" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" className="button-primary">
            {t('add')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
