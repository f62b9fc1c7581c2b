'use client';

import { useCallback, useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiGet, apiPost } from '@/lib/api/browser';
import { Field } from '@/components/forms/Field';
import { useErrorText } from '@/components/forms/useErrorText';
import { RecoveryCodeList, recoveryCodesOf } from './RecoveryCodeList';

const countOf = (answer: { recoveryCodesLeft?: number } | []) =>
  !Array.isArray(answer) && typeof answer.recoveryCodesLeft === 'number' ? answer.recoveryCodesLeft : null;

/** At or below this many codes left, the account modal warns (issue 48, point 6). */
export const FEW_RECOVERY_CODES = 3;

/**
 * With 2FA on: how many recovery codes are left, a warning when few are, and new ones for the
 * password or a current code of the app (issue 48, point 6). Meeting cards give a code only.
 */
export function RecoveryCodesSection({ needsPassword }: { needsPassword: boolean }) {
  const t = useTranslations('AccountModal');
  const login = useTranslations('Login');
  const errorText = useErrorText();
  const [left, setLeft] = useState<number | null>(null);
  const [renewing, setRenewing] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<{ field: 'password' | 'code' | null; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  const load = useCallback(() => apiGet<{ recoveryCodesLeft?: number }>('/2fa/g2f/recovery').then(countOf), []);
  useEffect(() => {
    let open = true;
    load().then((count) => open && count !== null && setLeft(count));
    return () => {
      open = false;
    };
  }, [load]);

  async function renew(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    const digits = code.replace(/\s/g, '');
    if (digits && !/^\d{6}$/.test(digits)) return setError({ field: 'code', text: login('enterAllDigits') });
    setBusy(true);
    const answer = await apiPost('/2fa/g2f/recovery', digits ? { code: digits } : { password });
    setBusy(false);
    if (answer.status === 'ok') {
      setCodes(recoveryCodesOf(answer.recoveryCode));
      setRenewing(false);
      setPassword('');
      setCode('');
      return;
    }
    if (answer.field === 'code') setError({ field: 'code', text: login('codeFailed') });
    else if (answer.field === 'password') setError({ field: 'password', text: errorText(answer.errorCode) ?? '' });
    else setError({ field: null, text: errorText(answer.errorCode) ?? '' });
  }

  if (codes) {
    return (
      <div className="mt-3 flex flex-col gap-3">
        <h4 className="font-semibold">{t('recoveryTitle')}</h4>
        <p className="text-sm text-slate-600">{t('recoveryIntro')}</p>
        <RecoveryCodeList codes={codes} />
        <button
          type="button"
          className="button-primary self-start"
          onClick={() => {
            setCodes(null);
            void load().then((count) => count !== null && setLeft(count));
          }}
        >
          {t('renewedDone')}
        </button>
      </div>
    );
  }

  return (
    <div className="mt-3 flex flex-col gap-2">
      {left !== null && (
        <p
          className={`text-sm ${left <= FEW_RECOVERY_CODES ? 'font-medium text-amber-800' : 'text-slate-600'}`}
          role={left <= FEW_RECOVERY_CODES ? 'alert' : undefined}
        >
          {t('recoveryLeft', { count: left })} {left <= FEW_RECOVERY_CODES && t('recoveryLow')}
        </p>
      )}
      {renewing ? (
        <form onSubmit={renew} aria-label={t('renewCodes')} className="flex flex-col gap-3" noValidate>
          <p className="text-sm text-slate-700">{t('renewIntro')}</p>
          {needsPassword && (
            <Field
              label={t('oldPassword')}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={error?.field === 'password' ? error.text : undefined}
            />
          )}
          <Field
            label={needsPassword ? t('appCode') : login('code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={error?.field === 'code' ? error.text : undefined}
          />
          {error?.field === null && (
            <p role="alert" className="text-sm text-red-700">
              {error.text}
            </p>
          )}
          <div className="flex gap-2">
            <button type="submit" className="button-primary" disabled={busy}>
              {t('renewSubmit')}
            </button>
            <button type="button" className="button-secondary" onClick={() => setRenewing(false)}>
              {t('cancel')}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="button-secondary self-start" onClick={() => setRenewing(true)}>
          {t('renewCodes')}
        </button>
      )}
    </div>
  );
}
