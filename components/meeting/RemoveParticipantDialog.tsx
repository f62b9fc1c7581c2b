'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';

/**
 * "Remove {name}?" before the host removes someone (issue 48 point 7): what it does — out at
 * once, no way back in, a new key for everyone else. Dialog traps focus, is labelled by its
 * title, and Escape or Cancel leaves the person in the call.
 */
export function RemoveParticipantDialog({ name, onConfirm, onClose }: { name: string; onConfirm: () => Promise<unknown>; onClose: () => void }) {
  const t = useTranslations('Meeting');
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onClose();
    }
  }
  return (
    <Dialog title={t('removeConfirm.title', { name })} onClose={onClose} size="max-w-md">
      <p className="text-slate-700">{t('removeConfirm.text', { name })}</p>
      <div className="mt-6 flex justify-end gap-2">
        <button type="button" className="button-secondary" onClick={onClose}>
          {t('cancel')}
        </button>
        <button type="button" className="button-danger" disabled={busy} onClick={() => void confirm()}>
          {t('removeConfirm.confirm')}
        </button>
      </div>
    </Dialog>
  );
}
