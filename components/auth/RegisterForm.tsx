'use client';

import { useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/browser';
import { registerProblems } from '@/lib/auth/form-rules';
import { Link } from '@/lib/i18n/links';
import { Field } from '@/components/forms/Field';
import { useModal } from '@/components/dialog/ModalProvider';
import { NewPasswordFields } from '@/components/forms/NewPasswordFields';
import { formValues, usePlainForm } from '@/components/forms/usePlainForm';
import { useErrorText } from '@/components/forms/useErrorText';
import { ResendActivation } from './ResendActivation';

const FIELDS = ['firstName', 'lastName', 'email', 'password', 'passwordConfirm', 'agree'] as const;

/**
 * `invitation`: the link's token and its address, which is fixed (issue 35: it registers that
 * address only). `domains`: the e-mail domains this server admits, shown as a hint.
 */
export function RegisterForm({
  invitation = null,
  domains = null,
  trial = true,
}: {
  invitation?: { token: string; email: string } | null;
  domains?: string[] | null;
  /** Billing on: a new account starts SPEC's trial, and the intro says so (off: no trial, issue 35). */
  trial?: boolean;
}) {
  const t = useTranslations('Register');
  const f = useTranslations('Forms');
  const locale = useLocale();
  const errorText = useErrorText();
  // The address registered, and whether the account is active already (an invitation proved it, issue 48).
  const [done, setDone] = useState<{ email: string; active: boolean } | null>(null);
  const modal = useModal();
  const { problems, failure, busy, submit } = usePlainForm(registerProblems, FIELDS);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { firstName = '', lastName = '', email = '', password = '', passwordConfirm = '', agree } = formValues(event.currentTarget);
    const values = { firstName, lastName, email, password, passwordConfirm, agree: agree === 'on' };
    void submit(values, async () => {
      const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const body = {
        ...values,
        firstName: firstName.trim(),
        lastName: lastName.trim(),
        email: email.trim(),
        lang: locale,
        timezone,
        ...(invitation ? { invitation: invitation.token } : {}),
      };
      const answer = await apiPost('/register', body);
      if (answer.status === 'ok') setDone({ email: body.email, active: answer.errorCode === 'success' });
      return answer;
    });
  }

  if (done?.active) {
    return (
      <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-5">
        <div role="status">
          <h2 className="text-lg font-semibold">{t('readyTitle')}</h2>
          <p className="mt-2">{t('readyBody', { email: done.email })}</p>
        </div>
        <Link href="/login" className="button-primary mt-4 inline-flex">
          {t('login')}
        </Link>
      </div>
    );
  }

  if (done) {
    return (
      <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-5">
        <div role="status">
          <h2 className="text-lg font-semibold">{t('doneTitle')}</h2>
          <p className="mt-2">{t('doneBody', { email: done.email })}</p>
        </div>
        <ResendActivation email={done.email} />
      </div>
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <p className="text-slate-600">{t(trial ? 'intro' : 'introNoTrial')}</p>
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800">
          {errorText(failure)}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={f('firstName')} name="firstName" autoComplete="given-name" required error={problems.firstName} />
        <Field label={f('lastName')} name="lastName" autoComplete="family-name" required error={problems.lastName} />
      </div>
      {invitation ? (
        <Field label={f('email')} type="email" name="email" value={invitation.email} readOnly hint={t('invitedEmail')} required error={problems.email} />
      ) : (
        <Field
          label={f('email')}
          type="email"
          name="email"
          autoComplete="email"
          required
          hint={domains ? t('domainsHint', { domains: domains.join(', '), count: domains.length }) : undefined}
          error={problems.email}
        />
      )}
      <NewPasswordFields problems={problems} />
      <div>
        <label className="flex items-start gap-2">
          <input type="checkbox" name="agree" className="mt-1" required aria-invalid={problems.agree ? true : undefined} />
          <span>
            {t.rich('agree', {
              terms: (chunks) => (
                // SPEC point 2: the terms open in their modal; the link still works in a new tab.
                <Link
                  href="/terms-of-service"
                  className="text-brand underline"
                  onClick={(event) => {
                    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
                    event.preventDefault();
                    modal.open('terms');
                  }}
                >
                  {chunks}
                </Link>
              ),
            })}
          </span>
        </label>
        {problems.agree && (
          <p role="alert" className="text-sm text-red-700">
            {errorText(problems.agree)}
          </p>
        )}
        {/* Issue 35: what happens to the data entered here, before it is sent. */}
        <p className="mt-2 text-sm text-slate-600">
          {t.rich('privacyNote', {
            privacy: (chunks) => (
              <Link href="/privacy" className="text-brand underline">
                {chunks}
              </Link>
            ),
          })}
        </p>
      </div>
      <button type="submit" className="button-primary" disabled={busy}>
        {busy ? f('saving') : t('submit')}
      </button>
      <p className="text-sm text-slate-600">
        {t('haveAccount')}{' '}
        <Link href="/login" className="text-brand underline">
          {t('login')}
        </Link>
      </p>
    </form>
  );
}
