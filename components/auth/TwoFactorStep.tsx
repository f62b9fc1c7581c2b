'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/browser';
import { looksLikeRecoveryCode } from '@/lib/auth/two-factor-format';
import { useErrorText } from '@/components/forms/useErrorText';

/**
 * The two-factor code entry at login (SPEC points 4 and 5): six digits from the app, or a
 * recovery code (issue 48, point 6), after which the person is told how many are left before
 * going on.
 */
export function TwoFactorStep({ onSuccess, onBack }: { onSuccess: () => void; onBack: () => void }) {
  const t = useTranslations('Login');
  const errorText = useErrorText();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [codesLeft, setCodesLeft] = useState<number | null>(null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (recovery ? !looksLikeRecoveryCode(code) : !/^\d{6}$/.test(code)) return setError(recovery ? t('recoveryCodeShape') : t('enterAllDigits'));
    setBusy(true);
    const answer = await apiPost('/2fa/g2f/check', { code });
    setBusy(false);
    if (answer.status === 'ok') {
      if (typeof answer.recoveryCodesLeft === 'number') return setCodesLeft(answer.recoveryCodesLeft);
      return onSuccess();
    }
    // 401 or any error: the message for a wrong code, unless the server says to slow down.
    setError(answer.errorCode === 'too_many_attempts' ? (errorText('too_many_attempts') ?? '') : t('codeFailed'));
  }

  function switchMode() {
    setRecovery((current) => !current);
    setCode('');
    setError(null);
  }

  if (codesLeft !== null) {
    return (
      <div className="flex flex-col gap-4">
        <h2 className="text-lg font-semibold">{t('recoveryUsedTitle')}</h2>
        <p
          role="alert"
          className={`rounded-md border p-3 text-sm ${codesLeft <= 3 ? 'border-amber-500 bg-amber-50 text-amber-950' : 'border-slate-200 text-slate-700'}`}
        >
          {t('recoveryLeft', { count: codesLeft })} {t('recoveryUsedAdvice')}
        </p>
        <button type="button" className="button-primary" onClick={onSuccess} autoFocus>
          {t('continue')}
        </button>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">{t('codeTitle')}</h2>
      <p className="text-slate-600">{t('codeIntro')}</p>
      <div className="flex flex-col gap-1">
        <label htmlFor="two-factor-code" className="text-sm font-medium text-slate-700">
          {recovery ? t('recoveryCode') : t('code')}
        </label>
        <input
          id="two-factor-code"
          key={recovery ? 'recovery' : 'app'}
          value={code}
          onChange={(event) => setCode(recovery ? event.target.value.slice(0, 20) : event.target.value.replace(/\D/g, '').slice(0, 6))}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={recovery ? 20 : 6}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'two-factor-error' : undefined}
          className={`rounded-md border border-slate-300 px-3 py-2 text-center font-mono ${recovery ? 'text-xl tracking-wider' : 'text-2xl tracking-[0.5em]'}`}
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
      <button type="button" className="text-sm text-slate-700 underline" onClick={switchMode}>
        {recovery ? t('useAppCode') : t('useRecoveryCode')}
      </button>
      <button type="button" className="text-sm text-slate-600 underline" onClick={onBack}>
        {t('back')}
      </button>
    </form>
  );
}
