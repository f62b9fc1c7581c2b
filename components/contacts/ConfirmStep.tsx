'use client';

import { useTranslations } from 'next-intl';

/** SPEC point 2 "update attendee or group confirmation": the last step of an edit modal. */
export function ConfirmStep({ message, busy, onBack, onConfirm }: { message: string; busy: boolean; onBack: () => void; onConfirm: () => void }) {
  const t = useTranslations('Manage');
  return (
    <div className="flex flex-col gap-6">
      <p className="text-slate-700">{message}</p>
      <div className="flex justify-end gap-2">
        <button type="button" className="button-secondary" onClick={onBack}>
          {t('back')}
        </button>
        {/* The step replaces the form, so focus must land here. */}
        <button type="button" className="button-primary" onClick={onConfirm} disabled={busy} autoFocus>
          {t('confirmSave')}
        </button>
      </div>
    </div>
  );
}
