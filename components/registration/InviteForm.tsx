'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Field } from '@/components/forms/Field';
import { apiPost } from '@/lib/api/browser';

/** "Invite someone" (issue 35): mails a registration link to one address. */
export function InviteForm() {
  const t = useTranslations('InviteSomeone');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(undefined);
    setSent(null);
    setBusy(true);
    const answer = await apiPost('/api/invitations', { email: email.trim() });
    setBusy(false);
    if (answer.status === 'ok') {
      setSent(email.trim());
      setEmail('');
    } else setError(answer.errorCode ?? 'error_contact_us');
  }

  return (
    <section aria-labelledby="invite-someone-title" className="flex max-w-2xl flex-col gap-3 rounded-md border border-slate-200 p-3">
      <h2 id="invite-someone-title" className="text-base font-semibold">
        {t('title')}
      </h2>
      <p className="text-xs text-slate-500">{t('hint')}</p>
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        <Field label={t('email')} type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} error={error} required />
        <div>
          <button type="submit" className="button-primary" disabled={busy}>
            {t('send')}
          </button>
        </div>
      </form>
      {sent && (
        <p role="status" className="text-sm text-emerald-800">
          {t('sent', { email: sent })}
        </p>
      )}
    </section>
  );
}
