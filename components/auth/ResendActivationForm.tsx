'use client';

import { useTranslations } from 'next-intl';
import { Field } from '@/components/forms/Field';
import { useErrorText } from '@/components/forms/useErrorText';
import { useEmailOnlyForm } from './useEmailOnlyForm';

/** /verify-account: asks for the activation mail again (POST /invitation). */
export function ResendActivationForm() {
  const t = useTranslations('Verification');
  const f = useTranslations('Forms');
  const errorText = useErrorText();
  const { sent, problems, failure, busy, onSubmit } = useEmailOnlyForm('/invitation');

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
