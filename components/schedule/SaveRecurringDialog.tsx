'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';

export type SaveScope = 'this' | 'following' | 'all';

/**
 * The save-recurring-event modal (SPEC point 4): this meeting (0), this and following (1; those
 * edited on their own keep their edits), or all meetings of the series.
 */
export function SaveRecurringDialog({ onChoose, onClose }: { onChoose: (scope: SaveScope) => void; onClose: () => void }) {
  const t = useTranslations('Schedule');
  const [scope, setScope] = useState<SaveScope>('this');
  return (
    <Dialog title={t('saveRecurringTitle')} onClose={onClose} size="max-w-md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onChoose(scope);
        }}
        className="flex flex-col gap-4"
      >
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-slate-700">{t('saveRecurringQuestion')}</legend>
          {(['this', 'following', 'all'] as const).map((option) => (
            <label key={option} className="flex items-center gap-2">
              <input type="radio" name="scope" checked={scope === option} onChange={() => setScope(option)} />
              {t(`saveScopes.${option}`)}
            </label>
          ))}
        </fieldset>
        <div className="flex justify-end gap-2">
          <button type="button" className="button-secondary" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" className="button-primary">
            {t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
