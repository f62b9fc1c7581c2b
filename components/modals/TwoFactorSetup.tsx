'use client';

import { useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiGet, apiPost } from '@/lib/api/browser';
import { groupSecret } from '@/lib/auth/two-factor-format';
import { RecoveryCodeList, recoveryCodesOf } from './RecoveryCodeList';

interface Setup {
  qr: string;
  secret: string;
}

/** "Can't scan it? Enter this key": the secret in groups of four, with a Copy button. */
function ManualKey({ secret }: { secret: string }) {
  const t = useTranslations('AccountModal');
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // No clipboard (an insecure context, a refused permission): the key stays visible to copy by hand.
    }
  }

  return (
    <details className="w-full rounded-md border border-slate-200 p-3 text-left text-sm">
      <summary className="cursor-pointer font-medium">{t('manualKeyToggle')}</summary>
      <p className="mt-2 text-slate-600" id="manual-key-hint">
        {t('manualKeyHint')}
      </p>
      <p className="mt-2 text-xs font-medium text-slate-500 uppercase" id="manual-key-label">
        {t('manualKeyLabel')}
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <code
          className="rounded bg-slate-100 px-2 py-1 font-mono text-base break-all select-all"
          aria-labelledby="manual-key-label"
          aria-describedby="manual-key-hint"
          data-testid="two-factor-secret"
        >
          {groupSecret(secret)}
        </code>
        <button type="button" className="button-secondary" onClick={() => void copy()}>
          {t('copyKey')}
        </button>
        <span role="status" className="text-emerald-700">
          {copied ? t('keyCopied') : ''}
        </span>
      </div>
    </details>
  );
}

/** Steps 1–3 of the account modal: scan the QR code, enter a code, keep the recovery codes. */
export function TwoFactorSetup({ step, onStep }: { step: 1 | 2 | 3; onStep: (step: 0 | 1 | 2 | 3) => void }) {
  const t = useTranslations('AccountModal');
  const login = useTranslations('Login');
  const errors = useTranslations('Errors');
  // A fresh secret per visit of step 1: the QR code and the key for typing it come together.
  const [setup, setSetup] = useState<Setup | null | 'failed'>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (step !== 1) return;
    let live = true;
    apiGet<Partial<Setup>>(`/2fa/g2f/setup?format=json&at=${Date.now()}`).then((answer) => {
      if (!live) return;
      const ok = !Array.isArray(answer) && typeof answer.qr === 'string' && typeof answer.secret === 'string';
      setSetup(ok ? { qr: answer.qr!, secret: answer.secret! } : 'failed');
    });
    return () => {
      live = false;
    };
  }, [step]);

  async function confirm(event: React.FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) return setError(login('enterAllDigits'));
    setBusy(true);
    const checked = await apiPost('/2fa/g2f/check', { code });
    const finished = checked.status === 'ok' ? await apiPost('/2fa/g2f/finish', { code }) : checked;
    setBusy(false);
    if (finished.status !== 'ok') return setError(login('codeFailed'));
    // SPEC point 7 lets recoveryCode be a list; issue 48 point 6 shows every code of it.
    setRecoveryCodes(recoveryCodesOf(finished.recoveryCode));
    onStep(3);
  }

  if (step === 1) {
    return (
      <div className="flex flex-col items-center gap-4 text-center">
        <h3 className="font-semibold">{t('scanTitle')}</h3>
        <p className="text-sm text-slate-600">{t('scanIntro')}</p>
        {setup === 'failed' ? (
          <p role="alert" className="text-sm text-red-700">
            {errors('error_contact_us')}
          </p>
        ) : setup === null ? (
          <div className="h-60 w-60 animate-pulse rounded bg-slate-100" aria-hidden="true" />
        ) : (
          <>
            {/* eslint-disable-next-line @next/next/no-img-element -- a one-off PNG from our own API */}
            <img src={setup.qr} alt={t('qrAlt')} width={240} height={240} data-testid="two-factor-qr" />
            <ManualKey secret={setup.secret} />
          </>
        )}
        <button type="button" className="button-primary" onClick={() => onStep(2)} disabled={setup === null || setup === 'failed'}>
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
      <RecoveryCodeList codes={recoveryCodes} />
      {/* /logout is a route handler, not a page: a full request that ends the session. */}
      {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
      <a href="/logout" className="button-primary">
        {t('recoveryDone')}
      </a>
    </div>
  );
}
