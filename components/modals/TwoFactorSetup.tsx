'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/client';

/** Steps 1–3 of the account modal: scan the QR code, enter a code, keep the recovery code. */
export function TwoFactorSetup({ step, onStep }: { step: 1 | 2 | 3; onStep: (step: 0 | 1 | 2 | 3) => void }) {
  const t = useTranslations('AccountModal');
  const login = useTranslations('Login');
  // A fresh secret per visit of step 1; the timestamp keeps the browser from reusing an old image.
  const [qrSource] = useState(() => `/2fa/g2f/setup?at=${Date.now()}`);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [recoveryCode, setRecoveryCode] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm(event: React.FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) return setError(login('enterAllDigits'));
    setBusy(true);
    const checked = await apiPost('/2fa/g2f/check', { code });
    const finished = checked.status === 'ok' ? await apiPost('/2fa/g2f/finish', { code }) : checked;
    setBusy(false);
    if (finished.status !== 'ok') return setError(login('codeFailed'));
    // SPEC point 7: recoveryCode comes as a list or a JSON string; the first item is shown.
    const raw = finished.recoveryCode;
    const list = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    setRecoveryCode(String(Array.isArray(list) ? list[0] : list));
    onStep(3);
  }

  if (step === 1) {
    return (
      <div className="flex flex-col items-center gap-4 text-center">
        <h3 className="font-semibold">{t('scanTitle')}</h3>
        <p className="text-sm text-slate-600">{t('scanIntro')}</p>
        {/* eslint-disable-next-line @next/next/no-img-element -- a one-off PNG from our own API */}
        <img src={qrSource} alt={t('qrAlt')} width={240} height={240} data-testid="two-factor-qr" />
        <button type="button" className="button-primary" onClick={() => onStep(2)}>
          {t('next')}
        </button>
      </div>
    );
  }
  if (step === 2) {
    return (
      <form onSubmit={confirm} className="flex flex-col gap-4" noValidate>
        <h3 className="font-semibold">{t('codeTitle')}</h3>
        <p className="text-sm text-slate-600">{t('codeIntro')}</p>
        <label htmlFor="setup-code" className="text-sm font-medium">
          {login('code')}
        </label>
        <input
          id="setup-code"
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'setup-code-error' : undefined}
          className="rounded-md border border-slate-300 px-3 py-2 text-center font-mono text-2xl tracking-[0.5em]"
        />
        {error && (
          <p id="setup-code-error" role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <button type="submit" className="button-primary" disabled={busy}>
          {login('codeSubmit')}
        </button>
      </form>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <h3 className="font-semibold">{t('recoveryTitle')}</h3>
      <p className="text-sm text-slate-600">{t('recoveryIntro')}</p>
      <p className="rounded-md bg-slate-100 p-4 text-center font-mono text-3xl tracking-[0.3em]" data-testid="recovery-code">
        {recoveryCode}
      </p>
      {/* /logout is a route handler, not a page: a full request that ends the session. */}
      {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
      <a href="/logout" className="button-primary">
        {t('recoveryDone')}
      </a>
    </div>
  );
}
