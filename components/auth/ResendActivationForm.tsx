'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/browser';
import { emailOnlyProblems } from '@/lib/auth/form-rules';
import { Field } from '@/components/forms/Field';
import { formValues, usePlainForm } from '@/components/forms/usePlainForm';
import { useErrorText } from '@/components/forms/useErrorText';

const FIELDS = ['email'] as const;

/** /verify-account: asks for the activation mail again (POST /invitation). */
export function ResendActivationForm() {
  const t = useTranslations('Verification');
  const f = useTranslations('Forms');
  const errorText = useErrorText();
  const [sent, setSent] = useState(false);
  const { problems, failure, busy, submit } = usePlainForm(emailOnlyProblems, FIELDS);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { email = '' } = formValues(event.currentTarget);
    void submit({ email }, async (values) => {
      const answer = await apiPost('/invitation', values);
      if (answer.status === 'ok') setSent(true);
      return answer;
    });
  }

  if (sent)
    return (
      <p role="status" className="rounded-md bg-emerald-50 p-3 text-emerald-900">
        {t('resent')}
      </p>
    );
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800">
          {errorText(failure)}
        </p>
      )}
      <Field label={f('email')} type="email" name="email" autoComplete="email" required error={problems.email} />
      <button type="submit" className="button-secondary" disabled={busy}>
        {t('resend')}
      </button>
    </form>
  );
}
