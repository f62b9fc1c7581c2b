'use client';

import { useId } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';

/** A generated meeting password is answered once, when the meeting is saved: show it then. */
export function SavedPasswordDialog({ password, onClose }: { password: string; onClose: () => void }) {
  const t = useTranslations('Schedule');
  const id = useId();
  return (
    <Dialog title={t('savedTitle')} onClose={onClose} size="max-w-md">
      <p className="text-slate-700">{t('savedPassword')}</p>
      <label htmlFor={id} className="sr-only">
        {t('password')}
      </label>
      <input id={id} readOnly value={password} className="mt-3 w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono" />
      <div className="mt-5 flex justify-end gap-2">
        <button type="button" className="button-secondary" onClick={() => void navigator.clipboard?.writeText(password)}>
          {t('copy')}
        </button>
        <button type="button" className="button-primary" onClick={onClose}>
          {t('toCalendar')}
        </button>
      </div>
    </Dialog>
  );
}
