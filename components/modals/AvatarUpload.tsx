'use client';

import { useEffect, useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { useErrorText } from '@/components/forms/useErrorText';

const MAX_BYTES = 2 * 1024 * 1024;
const TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** Profile picture: a preview before sending, and upload progress (XHR reports it, fetch not). */
export function AvatarUpload({ current, onUploaded }: { current: string | null; onUploaded: () => void }) {
  const t = useTranslations('AccountModal');
  const errorText = useErrorText();
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose(file: File | undefined) {
    setError(null);
    if (!file) return;
    if (!TYPES.includes(file.type)) return setError(t('avatarType'));
    if (file.size > MAX_BYTES) return setError(t('avatarSize'));
    setPreview(URL.createObjectURL(file));
    const form = new FormData();
    form.append('avatar', file);
    const request = new XMLHttpRequest();
    request.open('POST', '/api/avatar');
    request.upload.onprogress = (event) => event.lengthComputable && setProgress(Math.round((event.loaded / event.total) * 100));
    request.onload = () => {
      setProgress(null);
      const answer = JSON.parse(request.responseText || '{}') as { status?: string; errorCode?: string };
      if (answer.status === 'ok') onUploaded();
      else setError(errorText(answer.errorCode ?? 'error_contact_us') ?? '');
    };
    request.onerror = () => {
      setProgress(null);
      setError(errorText('error_contact_us') ?? '');
    };
    request.send(form);
  }

  const shown = preview ?? (current ? `/api/avatar/${current}` : null);
  return (
    <div className="flex items-center gap-4">
      <div className="h-16 w-16 shrink-0 overflow-hidden rounded-full bg-slate-200">
        {/* eslint-disable-next-line @next/next/no-img-element -- a local preview or our own API's image */}
        {shown && <img src={shown} alt={t('avatarAlt')} className="h-full w-full object-cover" />}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          {t('avatar')}
        </label>
        <input id={id} type="file" accept={TYPES.join(',')} onChange={(event) => choose(event.target.files?.[0])} className="text-sm" />
        {progress !== null && <progress max={100} value={progress} aria-label={t('avatarProgress')} className="w-40" />}
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
