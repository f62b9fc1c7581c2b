'use client';

import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import type { z } from 'zod';
import { apiPost } from '@/lib/api/client';
import { forgotPasswordSchema } from '@/lib/auth/schemas';
import { Link } from '@/lib/i18n/links';
import { Field } from '@/components/forms/Field';
import { showAnswerError } from '@/components/forms/answers';
import { useErrorText } from '@/components/forms/useErrorText';

type Input = z.input<typeof forgotPasswordSchema>;
type Output = z.output<typeof forgotPasswordSchema>;

export function ForgotPasswordForm() {
  const t = useTranslations('ForgotPassword');
  const f = useTranslations('Forms');
  const errorText = useErrorText();
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Input, unknown, Output>({
    resolver: zodResolver(forgotPasswordSchema),
  });

  async function onSubmit(values: Output) {
    setFailure(null);
    const answer = await apiPost('/api/password', values);
    if (answer.status === 'ok') setSent(true);
    else showAnswerError(answer, ['email'], setError, setFailure);
  }

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
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-4">
      <p className="text-slate-600">{t('intro')}</p>
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800">
          {errorText(failure)}
        </p>
      )}
      <Field label={f('email')} type="email" autoComplete="email" error={formState.errors.email?.message} {...register('email')} />
      <button type="submit" className="button-primary" disabled={formState.isSubmitting}>
        {t('submit')}
      </button>
      <Link href="/login" className="text-sm text-brand underline">
        {t('backToLogin')}
      </Link>
    </form>
  );
}
