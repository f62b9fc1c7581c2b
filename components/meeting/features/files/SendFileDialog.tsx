'use client';

import { useId, useState } from 'react';
import { useFormatter, useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import type { FileTransfers, SendResult } from '@/lib/meeting/client/files/transfers';
import { formatFileSize } from './file-size';

/** "Send a file": to everyone or one person, with the per-file limit shown before anything is chosen. */
export default function SendFileDialog({ files, onClose }: { files: FileTransfers; onClose: () => void }) {
  const t = useTranslations('Meeting.files');
  const format = useFormatter();
  const [file, setFile] = useState<File | null>(null);
  const [to, setTo] = useState('everyone');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const recipients = files.recipients();
  const ids = { to: useId(), file: useId(), limit: useId(), error: useId() };
  const limit = formatFileSize(format, files.limit);

  function choose(chosen: File | null) {
    setFile(chosen);
    setError(chosen && chosen.size > files.limit ? t('tooLarge', { size: limit }) : null);
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!file) return setError(t('noFile'));
    setBusy(true);
    const result: SendResult = await files.sendFile(file, to);
    setBusy(false);
    if (result === 'sent') return onClose();
    setError(result === 'too-large' ? t('tooLarge', { size: limit }) : result === 'empty' ? t('empty') : t('nobody'));
  }

  return (
    <Dialog title={t('send')} onClose={onClose}>
      <form onSubmit={submit} className="space-y-4 px-6 py-4" noValidate>
        <p className="text-sm text-slate-600">{t('intro')}</p>
        <p id={ids.limit} className="text-sm font-medium">
          {t('limit', { size: limit })}
        </p>
        <div>
          <label htmlFor={ids.to} className="block text-sm font-medium">
            {t('to')}
          </label>
          <select id={ids.to} value={to} onChange={(event) => setTo(event.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2">
            <option value="everyone">{t('everyone')}</option>
            {recipients.map((peer) => (
              <option key={peer.id} value={peer.id}>
                {peer.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.file} className="block text-sm font-medium">
            {t('file')}
          </label>
          <input
            id={ids.file}
            type="file"
            aria-describedby={`${ids.limit}${error ? ` ${ids.error}` : ''}`}
            aria-invalid={error ? true : undefined}
            onChange={(event) => choose(event.target.files?.[0] ?? null)}
            className="mt-1 block w-full min-w-0 text-sm"
          />
        </div>
        {error && (
          <p id={ids.error} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="button-secondary" onClick={onClose}>
            {t('close')}
          </button>
          <button type="submit" className="button-primary" disabled={busy || !recipients.length}>
            {t('sendButton')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
