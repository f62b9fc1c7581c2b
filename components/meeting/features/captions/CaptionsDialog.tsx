'use client';

import { useId, useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import { localeLabels, type Locale } from '@/lib/i18n/locales';
import type { Captions } from '@/lib/meeting/client/captions/captions';
import { SPEECH_LANGUAGES } from '@/lib/meeting/client/captions/languages';
import { transcriptText, transcriptVtt } from '@/lib/meeting/client/captions/transcript';

interface CaptionsDialogProps {
  captions: Captions;
  isHost: boolean;
  /** Our name, for our own lines in the transcript. */
  selfName: string;
  onClose: () => void;
}

/** Saves text as a file from the page: made here, downloaded here, never uploaded. */
function save(text: string, type: string, name: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * "Captions" (loaded when first opened, components/meeting/call/CallView.tsx): whether this page
 * shows the others' captions, captioning our own microphone — or, where the browser cannot
 * recognise speech on the device, why not — and, for the host, the transcript as a file.
 */
export default function CaptionsDialog({ captions, isHost, selfName, onClose }: CaptionsDialogProps) {
  const t = useTranslations('Captions');
  const view = useSyncExternalStore(captions.subscribe, captions.getSnapshot, captions.getSnapshot);
  const statusId = useId();
  const language = (Object.keys(SPEECH_LANGUAGES) as Locale[]).find((locale) => SPEECH_LANGUAGES[locale] === view.language);
  const languageName = language ? localeLabels[language].name : view.language;
  const on = view.own === 'on' || view.own === 'preparing';
  const blocked = view.own === 'unavailable' || view.own === 'checking';
  const status: Record<typeof view.own, string> = {
    checking: t('checking'),
    off: t('ready'),
    downloadable: t('downloadable', { language: languageName }),
    preparing: t('preparing'),
    on: t('on'),
    unavailable: t('unavailable', { language: languageName }),
    failed: t('failed'),
  };
  const fileName = `${t('fileName')}-${new Date().toISOString().slice(0, 10)}`;

  return (
    <Dialog title={t('title')} onClose={onClose} size="max-w-lg">
      <div className="max-h-[70dvh] space-y-5 overflow-y-auto text-sm">
        <p className="text-slate-600">{t('privacy')}</p>
        <label className="flex items-center gap-2 font-medium">
          <input type="checkbox" className="h-4 w-4" checked={view.show} onChange={(event) => captions.setShow(event.target.checked)} />
          {t('show')}
        </label>

        <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
          <legend className="px-1 font-semibold">{t('mine')}</legend>
          <label className="flex flex-wrap items-center gap-2">
            <span>{t('language')}</span>
            <select
              className="min-w-0 rounded-md border border-slate-300 px-2 py-1"
              value={view.language}
              disabled={on}
              onChange={(event) => captions.setLanguage(event.target.value)}
            >
              {(Object.keys(SPEECH_LANGUAGES) as Locale[]).map((locale) => (
                <option key={locale} value={SPEECH_LANGUAGES[locale]}>
                  {localeLabels[locale].name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className={on ? 'button-secondary' : 'button-primary'}
            aria-pressed={on}
            aria-describedby={statusId}
            disabled={blocked}
            onClick={() => (on ? captions.stopOwn() : void captions.startOwn())}
          >
            {on ? t('stop') : t('start')}
          </button>
          <p
            id={statusId}
            role="status"
            data-testid="captions-status"
            className={view.own === 'unavailable' || view.own === 'failed' ? 'text-amber-800' : 'text-slate-600'}
          >
            {status[view.own]}
          </p>
        </fieldset>

        {isHost && (
          <section aria-labelledby={`${statusId}-transcript`} className="space-y-2">
            <h3 id={`${statusId}-transcript`} className="font-semibold">
              {t('transcript')}
            </h3>
            <p className="text-slate-600">
              {t('lines', { count: view.transcriptLines })} {t('transcriptNote')}
            </p>
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className="button-secondary"
                disabled={view.transcriptLines === 0}
                onClick={() => save(transcriptText(captions.transcript(), selfName), 'text/plain;charset=utf-8', `${fileName}.txt`)}
              >
                {t('saveText')}
              </button>
              <button
                type="button"
                className="button-secondary"
                disabled={view.transcriptLines === 0}
                onClick={() => save(transcriptVtt(captions.transcript(), selfName), 'text/vtt;charset=utf-8', `${fileName}.vtt`)}
              >
                {t('saveVtt')}
              </button>
            </div>
          </section>
        )}
      </div>
    </Dialog>
  );
}
