'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { usePathRouter } from '@/lib/navigation/router';
import { apiPost } from '@/lib/api/browser';
import { normalizeTimezone } from '@/lib/time/timezones';
import { useApp } from '@/components/AppContext';
import { Dialog } from '@/components/dialog/Dialog';
import { Field } from '@/components/forms/Field';
import { TimezoneSelect } from '@/components/forms/TimezoneSelect';
import { useErrorText } from '@/components/forms/useErrorText';

/**
 * SPEC point 4, first-time setup: the time zone (Europe/London when unknown or UTC) and a first
 * room, so that "start meeting now" works straight away.
 */
export function QuickSetupModal({ close }: { close: () => void }) {
  const t = useTranslations('QuickSetup');
  const errorText = useErrorText();
  const router = usePathRouter();
  const { user } = useApp();
  const zoneId = useId();
  const [timezone, setTimezone] = useState(() => normalizeTimezone(user?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone));
  const [roomName, setRoomName] = useState(() => t('roomDefault', { name: user?.firstName ?? '' }).trim());
  const [error, setError] = useState<{ field?: string; code: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const needsRoom = !user?.hasRoom;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    const saved = await apiPost('/api/me', { timezone });
    const room = saved.status === 'ok' && needsRoom ? await apiPost('/api/room', { name: roomName, isDefault: true }) : saved;
    setBusy(false);
    if (room.status !== 'ok') {
      return setError({
        field: typeof room.field === 'string' ? room.field : undefined,
        code: room.errorCode ?? 'error_contact_us',
      });
    }
    close();
    router.refresh();
  }

  return (
    <Dialog title={t('title')} onClose={close}>
      <form onSubmit={save} className="flex flex-col gap-4" noValidate>
        <p className="text-slate-600">{t('intro')}</p>
        <div className="flex flex-col gap-1">
          <label htmlFor={zoneId} className="text-sm font-medium">
            {t('timezone')}
          </label>
          <TimezoneSelect id={zoneId} value={timezone} onChange={setTimezone} />
        </div>
        {needsRoom && (
          <Field
            label={t('roomName')}
            value={roomName}
            onChange={(event) => setRoomName(event.target.value)}
            error={error?.field === 'name' ? error.code : undefined}
          />
        )}
        {error && error.field !== 'name' && (
          <p role="alert" className="text-sm text-red-700">
            {errorText(error.code)}
          </p>
        )}
        <button type="submit" className="button-primary" disabled={busy}>
          {t('save')}
        </button>
      </form>
    </Dialog>
  );
}
