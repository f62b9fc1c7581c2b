'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  title: string;
  message: React.ReactNode;
  confirmLabel: string;
  /** Runs the action; the caller closes the dialog when it succeeded. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** Asks before an action that cannot be undone, such as a deletion (SPEC point 2, "Modals"). */
export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onClose }: ConfirmDialogProps) {
  const t = useTranslations('Manage');
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog title={title} onClose={onClose} size="max-w-md">
      <div className="text-slate-700">{message}</div>
      <div className="mt-6 flex justify-end gap-2">
        <button type="button" className="button-secondary" onClick={onClose}>
          {t('cancel')}
        </button>
        <button type="button" onClick={confirm} disabled={busy} className="button-danger">
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
