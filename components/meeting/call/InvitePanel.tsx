'use client';

import { useId } from 'react';
import { useTranslations } from 'next-intl';
import { LinkIcon } from '../icons';

/**
 * Alone in the call (issue 48): how to bring the others in, as Meet does — a short line and the
 * meeting link's copy button (the toolbar's, CallView.copyLink). CallView shows it while nobody
 * else is in the call; it goes when someone joins, or when closed.
 */
export function InvitePanel({ onCopyLink, onClose }: { onCopyLink: () => void; onClose: () => void }) {
  const t = useTranslations('Meeting.invite');
  const m = useTranslations('Meeting');
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="mb-3 flex shrink-0 flex-wrap items-center gap-x-4 gap-y-2 rounded-xl bg-slate-800 px-4 py-3">
      <div className="min-w-0 flex-1 basis-60">
        <h2 id={titleId} className="font-semibold">
          {t('title')}
        </h2>
        <p className="text-sm text-slate-300">{t('body')}</p>
      </div>
      <div className="flex items-center gap-2">
        <button
          type="button"
          className="inline-flex items-center gap-2 rounded-full bg-sky-600 px-4 py-2 text-sm font-semibold hover:bg-sky-700"
          onClick={onCopyLink}
        >
          <LinkIcon />
          {m('copyLink')}
        </button>
        <button type="button" aria-label={t('close')} title={t('close')} className="rounded-full p-2 text-slate-300 hover:bg-slate-700" onClick={onClose}>
          <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M5 5l10 10M15 5L5 15" />
          </svg>
        </button>
      </div>
    </section>
  );
}
