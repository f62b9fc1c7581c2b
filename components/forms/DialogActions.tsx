'use client';

import { useTranslations } from 'next-intl';

/** The Cancel / Save row at the foot of every edit dialog. */
export function DialogActions({ onCancel, busy }: { onCancel: () => void; busy: boolean }) {
  const m = useTranslations('Manage');
  return (
    <div className="flex justify-end gap-2">
      <button type="button" className="button-secondary" onClick={onCancel}>
        {m('cancel')}
      </button>
      <button type="submit" className="button-primary" disabled={busy}>
        {busy ? m('saving') : m('save')}
      </button>
    </div>
  );
}
