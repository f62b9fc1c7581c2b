'use client';

import { useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiGet, apiPost } from '@/lib/api/browser';
import { resetPasswordProblems } from '@/lib/auth/form-rules';
import { Link } from '@/lib/i18n/links';
import { NewPasswordFields } from '@/components/forms/NewPasswordFields';
import { formValues, usePlainForm } from '@/components/forms/usePlainForm';
import { useErrorText } from '@/components/forms/useErrorText';

const FIELDS = ['password', 'passwordConfirm'] as const;

export function ResetPasswordForm({ link }: { link: string }) {
  const t = useTranslations('ResetPassword');
  const f = useTranslations('Forms');
  const errorText = useErrorText();
  const [state, setState] = useState<'checking' | 'valid' | 'invalid' | 'done'>('checking');
  const { problems, failure, busy, submit } = usePlainForm(resetPasswordProblems, FIELDS);

  useEffect(() => {
    apiGet<{ status?: string }>(`/api/password/${encodeURIComponent(link)}`).then((answer) =>
      setState(!Array.isArray(answer) && answer.status === 'ok' ? 'valid' : 'invalid'),
    );
  }, [link]);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { password = '', passwordConfirm = '' } = formValues(event.currentTarget);
    void submit({ password, passwordConfirm }, async (values) => {
      const answer = await apiPost('/api/password/reset', { link, ...values });
      if (answer.status === 'ok') setState('done');
      return answer;
    });
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
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-red-800">
          {errorText(failure)}
        </p>
      )}
      <NewPasswordFields problems={problems} />
      <button type="submit" className="button-primary" disabled={busy}>
        {t('submit')}
      </button>
    </form>
  );
}
