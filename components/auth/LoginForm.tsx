'use client';

import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useRouter, useSearchParams } from 'next/navigation';
import type { z } from 'zod';
import { apiPost, type ApiAnswer } from '@/lib/api/client';
import { loginSchema } from '@/lib/auth/schemas';
import { safeNextPath } from '@/lib/auth/next-path';
import { Link } from '@/lib/i18n/links';
import { Field } from '@/components/forms/Field';
import { showAnswerError } from '@/components/forms/answers';
import { useErrorText } from '@/components/forms/useErrorText';
import { CardLinkRequest, useCardLink } from './CardLogin';
import { TwoFactorStep } from './TwoFactorStep';

type Input = z.input<typeof loginSchema>;
type Output = z.output<typeof loginSchema>;

/** SPEC point 4, login: e-mail and password, then the six-digit code when 2FA is on. */
export function LoginForm() {
  const t = useTranslations('Login');
  const f = useTranslations('Forms');
  const errorText = useErrorText();
  const router = useRouter();
  const next = safeNextPath(useSearchParams().get('next'));
  const [needsCode, setNeedsCode] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<Input, unknown, Output>({
    resolver: zodResolver(loginSchema),
  });

  function enter() {
    // The server's redirects add the user's language prefix; refresh loads the logged-in shell.
    router.replace(next);
    router.refresh();
  }

  function afterLogin(answer: ApiAnswer) {
    if (answer.status !== 'ok') return showAnswerError(answer, [], setError, setFailure);
    if (answer.twoFactorRequired) setNeedsCode(true);
    else enter();
  }

  const cardLoggingIn = useCardLink(afterLogin);

  async function onSubmit(values: Output) {
    setFailure(null);
    afterLogin(await apiPost('/login', values));
  }

  if (needsCode) return <TwoFactorStep onSuccess={enter} onBack={() => setNeedsCode(false)} />;
  if (cardLoggingIn) return <p role="status">{t('cardLoggingIn')}</p>;

  const { errors, isSubmitting } = formState;
  return (
    <div className="flex flex-col gap-6">
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-4">
        {failure && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800">
            {errorText(failure)}
          </p>
        )}
        <Field
          label={f('email')}
          type="email"
          autoComplete="username"
          error={errors.email?.message}
          {...register('email')}
        />
        <Field
          label={f('password')}
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <button type="submit" className="button-primary" disabled={isSubmitting}>
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
