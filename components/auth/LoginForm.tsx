'use client';

import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { useSearchParams } from 'next/navigation';
import { usePathRouter } from '@/lib/navigation/router';
import { apiPost, type ApiAnswer } from '@/lib/api/browser';
import { isErrorCode } from '@/lib/errors';
import type { OidcProviderButton } from '@/lib/auth/oidc/providers';
import { loginProblems } from '@/lib/auth/form-rules';
import { safeNextPath } from '@/lib/auth/next-path';
import { Link } from '@/lib/i18n/links';
import { Field } from '@/components/forms/Field';
import { formValues, usePlainForm } from '@/components/forms/usePlainForm';
import { useErrorText } from '@/components/forms/useErrorText';
import { CardLinkRequest, useCardLink } from './CardLogin';
import { SsoButtons } from './SsoButtons';

// Only after a password was accepted, and only for accounts with 2FA: loaded then.
const TwoFactorStep = lazy(() => import('./TwoFactorStep').then((m) => ({ default: m.TwoFactorStep })));
const FIELDS = ['email', 'password'] as const;

/**
 * SPEC point 4, login: e-mail and password, then the six-digit code when 2FA is on; and "Sign in
 * with …" for each OpenID provider, whose callback comes back here with ?error=<code> when it
 * failed, or ?step=code when the account's second factor is still to be given.
 */
export function LoginForm({ providers = [] }: { providers?: OidcProviderButton[] }) {
  const t = useTranslations('Login');
  const f = useTranslations('Forms');
  const errorText = useErrorText();
  const router = usePathRouter();
  const query = useSearchParams();
  const next = safeNextPath(query.get('next'));
  const [needsCode, setNeedsCode] = useState(false);
  const codeAsked = query.get('step') === 'code';
  const ssoError = query.get('error');
  const [cardFailure, setCardFailure] = useState<string | null>(isErrorCode(ssoError) ? ssoError : null);
  const { problems, failure, busy, submit } = usePlainForm(loginProblems, FIELDS);

  function enter() {
    // The server's redirects add the user's language prefix; refresh loads the logged-in shell.
    router.replace(next);
    router.refresh();
  }

  /** A failed answer goes above the form (no field of its own: login_failed names none). */
  function afterLogin(answer: ApiAnswer): ApiAnswer | void {
    if (answer.status !== 'ok') return { ...answer, field: undefined };
    if (answer.twoFactorRequired) setNeedsCode(true);
    else enter();
  }

  // After "Sign in with …", the provider's callback asks for the code with ?step=code. Shown once
  // hydrated: a server-rendered code form would submit natively if typed in before React is ready.
  useEffect(() => {
    if (codeAsked) queueMicrotask(() => setNeedsCode(true));
  }, [codeAsked]);

  const cardLoggingIn = useCardLink((answer) => {
    const failed = afterLogin(answer);
    if (failed) setCardFailure(failed.errorCode ?? 'error_contact_us');
  });

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setCardFailure(null);
    const { email = '', password = '' } = formValues(event.currentTarget);
    void submit({ email, password }, async (values) => afterLogin(await apiPost('/login', values)));
  }

  if (needsCode) {
    return (
      <Suspense fallback={<p role="status">{t('codeTitle')}</p>}>
        <TwoFactorStep onSuccess={enter} onBack={() => setNeedsCode(false)} />
      </Suspense>
    );
  }
  if (cardLoggingIn) return <p role="status">{t('cardLoggingIn')}</p>;

  const shown = failure ?? cardFailure;
  return (
    <div className="flex flex-col gap-6">
      <SsoButtons providers={providers} next={next} />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {shown && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800">
            {errorText(shown)}
          </p>
        )}
        <Field label={f('email')} type="email" name="email" autoComplete="username" required error={problems.email} />
        <Field label={f('password')} type="password" name="password" autoComplete="current-password" required error={problems.password} />
        <button type="submit" className="button-primary" disabled={busy}>
          {t('submit')}
        </button>
        <div className="flex flex-wrap justify-between gap-2 text-sm">
          <Link href="/forgotPassword" className="text-brand underline">
            {t('forgot')}
          </Link>
          <span>
            {t('noAccount')}{' '}
            <Link href="/register" className="text-brand underline">
              {t('register')}
            </Link>
          </span>
        </div>
      </form>
      {/* Its own form: forms cannot nest. */}
      <CardLinkRequest />
    </div>
  );
}
