'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/browser';
import { looksLikeRecoveryCode } from '@/lib/auth/two-factor-format';
import { Field } from '@/components/forms/Field';
import { useErrorText } from '@/components/forms/useErrorText';

/**
 * Turning 2FA off asks for the password (none on meeting cards) and a code from the app or the
 * recovery code (issue 16, item 4): holding the session alone is not enough.
 */
export function DisableTwoFactorForm({ needsPassword, onDone, onCancel }: { needsPassword: boolean; onDone: () => void; onCancel: () => void }) {
  const t = useTranslations('AccountModal');
  const login = useTranslations('Login');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const errorText = useErrorText();
  const [error, setError] = useState<{ field: 'password' | 'code' | null; code: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    // Six digits of the app, or a recovery code as shown (abcd-efgh-jkmn; 123-456 from before issue 48).
    if (!looksLikeRecoveryCode(code.trim())) return setError({ field: 'code', code: 'enterAllDigits' });
    setBusy(true);
    const answer = await apiPost('/2fa/g2f/cancel', { code: code.trim(), ...(needsPassword ? { password } : {}) });
    setBusy(false);
    if (answer.status === 'ok') return onDone();
    if (answer.field === 'password') setError({ field: 'password', code: answer.errorCode ?? 'invalid_old_password' });
    else if (answer.field === 'code') setError({ field: 'code', code: 'codeFailed' });
    // Too many attempts, a lost connection…: the server's own message.
    else setError({ field: null, code: answer.errorCode ?? 'error_contact_us' });
  }

  return (
    <form onSubmit={submit} className="mt-3 flex flex-col gap-3" noValidate>
      <p className="text-sm text-slate-700">{t('disable2faIntro')}</p>
      {needsPassword && (
        <Field
          label={t('oldPassword')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={error?.field === 'password' ? error.code : undefined}
        />
      )}
      <Field
        label={t('disable2faCode')}
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={20}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        aria-invalid={error?.field === 'code' ? true : undefined}
      />
      {error?.field === 'code' && (
        <p role="alert" className="text-sm text-red-700">
          {login(error.code as 'codeFailed' | 'enterAllDigits')}
        </p>
      )}
      {error?.field === null && (
        <p role="alert" className="text-sm text-red-700">
          {errorText(error.code)}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" className="button-danger" disabled={busy}>
          {t('disable2fa')}
        </button>
        <button type="button" className="button-secondary" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
