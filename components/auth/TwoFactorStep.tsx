'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/browser';
import { useErrorText } from '@/components/forms/useErrorText';

/** The two-factor code entry at login (SPEC points 4 and 5). */
export function TwoFactorStep({ onSuccess, onBack }: { onSuccess: () => void; onBack: () => void }) {
  const t = useTranslations('Login');
  const errorText = useErrorText();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) return setError(t('enterAllDigits'));
    setBusy(true);
    const answer = await apiPost('/2fa/g2f/check', { code });
    setBusy(false);
    if (answer.status === 'ok') return onSuccess();
    // 401 or any error: the message for a wrong code, unless the server says to slow down.
    setError(answer.errorCode === 'too_many_attempts' ? (errorText('too_many_attempts') ?? '') : t('codeFailed'));
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">{t('codeTitle')}</h2>
      <p className="text-slate-600">{t('codeIntro')}</p>
      <div className="flex flex-col gap-1">
        <label htmlFor="two-factor-code" className="text-sm font-medium text-slate-700">
          {t('code')}
        </label>
        <input
          id="two-factor-code"
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="\d{6}"
          // Room for the recovery code as it is shown (123-456): the dash is dropped as it is typed or pasted.
          maxLength={7}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'two-factor-error' : undefined}
          className="rounded-md border border-slate-300 px-3 py-2 text-center font-mono text-2xl tracking-[0.5em]"
        />
        {error && (
          <p id="two-factor-error" role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="button-primary" disabled={busy}>
        {t('codeSubmit')}
      </button>
      <button type="button" className="text-sm text-slate-600 underline" onClick={onBack}>
        {t('back')}
      </button>
    </form>
  );
}
