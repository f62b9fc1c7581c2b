'use client';

import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import type { z } from 'zod';
import { apiGet, apiPost } from '@/lib/api/client';
import { resetPasswordSchema } from '@/lib/auth/schemas';
import { Link } from '@/lib/i18n/links';
import { Field } from '@/components/forms/Field';
import { PasswordStrength } from '@/components/forms/PasswordStrength';
import { showAnswerError } from '@/components/forms/answers';
import { useErrorText } from '@/components/forms/useErrorText';

type Input = z.input<typeof resetPasswordSchema>;
type Output = z.output<typeof resetPasswordSchema>;

export function ResetPasswordForm({ link }: { link: string }) {
  const t = useTranslations('ResetPassword');
  const f = useTranslations('Forms');
  const errorText = useErrorText();
  const [state, setState] = useState<'checking' | 'valid' | 'invalid' | 'done'>('checking');
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, control, setError, formState } = useForm<Input, unknown, Output>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { link },
  });
  const password = useWatch({ control, name: 'password' });

  useEffect(() => {
    apiGet<{ status?: string }>(`/api/password/${encodeURIComponent(link)}`).then((answer) =>
      setState(!Array.isArray(answer) && answer.status === 'ok' ? 'valid' : 'invalid'),
    );
  }, [link]);

  async function onSubmit(values: Output) {
    setFailure(null);
    const answer = await apiPost('/api/password/reset', values);
    if (answer.status === 'ok') setState('done');
    else showAnswerError(answer, ['password', 'passwordConfirm'], setError, setFailure);
  }

  if (state === 'checking') return <p role="status">{t('checking')}</p>;
  if (state === 'invalid' || state === 'done') {
    return (
      <div className="flex flex-col gap-4">
        <p role={state === 'done' ? 'status' : 'alert'} className="rounded-md bg-slate-100 p-3">
          {state === 'done' ? t('done') : errorText('invalid_reset_link')}
        </p>
        <Link href={state === 'done' ? '/login' : '/forgotPassword'} className="button-primary">
          {state === 'done' ? t('login') : f('submit')}
        </Link>
      </div>
    );
  }
  const { errors, isSubmitting } = formState;
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-4">
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800">
          {errorText(failure)}
        </p>
      )}
      <Field label={f('password')} type="password" autoComplete="new-password" hint={f('passwordHint')} error={errors.password?.message} {...register('password')} />
      <PasswordStrength password={password ?? ''} />
      <Field label={f('passwordConfirm')} type="password" autoComplete="new-password" error={errors.passwordConfirm?.message} {...register('passwordConfirm')} />
      <button type="submit" className="button-primary" disabled={isSubmitting}>
        {t('submit')}
      </button>
    </form>
  );
}
