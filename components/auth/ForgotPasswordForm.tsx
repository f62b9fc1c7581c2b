'use client';

import { useTranslations } from 'next-intl';
import { Link } from '@/lib/i18n/links';
import { Field } from '@/components/forms/Field';
import { useErrorText } from '@/components/forms/useErrorText';
import { useEmailOnlyForm } from './useEmailOnlyForm';

export function ForgotPasswordForm() {
  const t = useTranslations('ForgotPassword');
  const f = useTranslations('Forms');
  const errorText = useErrorText();
  const { sent, problems, failure, busy, onSubmit } = useEmailOnlyForm('/api/password');

  if (sent) {
    return (
      <div className="flex flex-col gap-4">
        <p role="status" className="rounded-md bg-emerald-50 p-3 text-emerald-900">
          {t('sent')}
        </p>
        <Link href="/login" className="text-brand underline">
          {t('backToLogin')}
        </Link>
      </div>
    );
  }
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <p className="text-slate-600">{t('intro')}</p>
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800">
          {errorText(failure)}
        </p>
      )}
      <Field label={f('email')} type="email" name="email" autoComplete="email" required error={problems.email} />
      <button type="submit" className="button-primary" disabled={busy}>
        {t('submit')}
      </button>
      <Link href="/login" className="text-sm text-brand underline">
        {t('backToLogin')}
      </Link>
    </form>
  );
}
