'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiDelete, apiPost } from '@/lib/api/browser';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import { Dialog } from '@/components/dialog/Dialog';

/**
 * The private ICS feed (docs/calendar.md): a secret address a calendar app subscribes to. Only a
 * hash of it is kept, so it is shown once; a new one turns the old one off, and it can be revoked.
 */
export function CalendarFeedDialog({ onClose }: { onClose: () => void }) {
  const t = useTranslations('Calendar');
  const feedback = useApiFeedback();
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const urlId = useId();

  async function run(action: () => Promise<{ status?: string; errorCode?: string; url?: unknown }>, onDone: (url: unknown) => void) {
    setBusy(true);
    const answer = await action();
    setBusy(false);
    if (answer.status !== 'ok') return feedback.failed(answer.errorCode ?? 'error_contact_us');
    onDone(answer.url);
  }

  return (
    <Dialog title={t('feedTitle')} onClose={onClose} size="max-w-lg">
      <p className="text-slate-700">{t('feedIntro')}</p>
      {url && (
        <div className="mt-4 flex flex-col gap-1">
          <label htmlFor={urlId} className="text-sm font-medium text-slate-700">
            {t('feedUrl')}
          </label>
          <div className="flex gap-2">
            <input id={urlId} readOnly value={url} className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm" />
            <button type="button" className="button-secondary" onClick={() => void navigator.clipboard?.writeText(url)}>
              {t('copy')}
            </button>
          </div>
          <p className="text-xs text-slate-500">{t('feedOnce')}</p>
        </div>
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          className="button-secondary"
          disabled={busy}
          onClick={() =>
            void run(
              () => apiDelete('/api/calendar/feed'),
              () => {
                setUrl(null);
                feedback.succeeded();
              },
            )
          }
        >
          {t('feedRevoke')}
        </button>
        <button
          type="button"
          className="button-primary"
          disabled={busy}
          onClick={() =>
            void run(
              () => apiPost('/api/calendar/feed'),
              (value) => typeof value === 'string' && setUrl(value),
            )
          }
        >
          {t('feedCreate')}
        </button>
      </div>
    </Dialog>
  );
}
