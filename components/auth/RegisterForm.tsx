'use client';

import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import type { z } from 'zod';
import { apiPost } from '@/lib/api/client';
import { registerSchema } from '@/lib/auth/schemas';
import { Link } from '@/lib/i18n/links';
import { Field } from '@/components/forms/Field';
import { useModal } from '@/components/dialog/ModalProvider';
import { PasswordStrength } from '@/components/forms/PasswordStrength';
import { showAnswerError } from '@/components/forms/answers';
import { useErrorText } from '@/components/forms/useErrorText';
import { ResendActivation } from './ResendActivation';

type Input = z.input<typeof registerSchema>;
type Output = z.output<typeof registerSchema>;
const FIELDS = ['firstName', 'lastName', 'email', 'password', 'passwordConfirm', 'agree'] as const;

export function RegisterForm() {
  const t = useTranslations('Register');
  const f = useTranslations('Forms');
  const locale = useLocale();
  const errorText = useErrorText();
  const [done, setDone] = useState<string | null>(null);
  const modal = useModal();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, control, setError, formState } = useForm<Input, unknown, Output>({
    resolver: zodResolver(registerSchema),
    defaultValues: { agree: false as unknown as true },
  });
  const password = useWatch({ control, name: 'password' });

  async function onSubmit(values: Output) {
    setFailure(null);
    const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const answer = await apiPost('/register', { ...values, lang: locale, timezone });
    if (answer.status === 'ok') setDone(values.email);
    else showAnswerError(answer, FIELDS, setError, setFailure);
  }

  if (done) {
    return (
      <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-5">
        <div role="status">
          <h2 className="text-lg font-semibold">{t('doneTitle')}</h2>
          <p className="mt-2">{t('doneBody', { email: done })}</p>
        </div>
        <ResendActivation email={done} />
      </div>
    );
  }

  const { errors, isSubmitting } = formState;
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-4">
      <p className="text-slate-600">{t('intro')}</p>
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800">
          {errorText(failure)}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={f('firstName')} autoComplete="given-name" error={errors.firstName?.message} {...register('firstName')} />
        <Field label={f('lastName')} autoComplete="family-name" error={errors.lastName?.message} {...register('lastName')} />
      </div>
      <Field label={f('email')} type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <Field
        label={f('password')}
        type="password"
        autoComplete="new-password"
        hint={f('passwordHint')}
        error={errors.password?.message}
        {...register('password')}
      />
      <PasswordStrength password={password ?? ''} />
      <Field
        label={f('passwordConfirm')}
        type="password"
        autoComplete="new-password"
        error={errors.passwordConfirm?.message}
        {...register('passwordConfirm')}
      />
      <div>
        <label className="flex items-start gap-2">
          <input type="checkbox" className="mt-1" aria-invalid={errors.agree ? true : undefined} {...register('agree')} />
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
        {errors.agree && (
          <p role="alert" className="text-sm text-red-700">
            {errorText(errors.agree.message)}
          </p>
        )}
      </div>
      <button type="submit" className="button-primary" disabled={isSubmitting}>
        {isSubmitting ? f('saving') : t('submit')}
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
