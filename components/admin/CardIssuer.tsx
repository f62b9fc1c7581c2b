'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { useClock } from '@/components/time/useClock';
import { usePathRouter } from '@/lib/navigation/router';
import { Field } from '@/components/forms/Field';
import { apiPost } from '@/lib/api/browser';

interface Issued {
  email: string;
  created: boolean;
  link: string;
  expiresAt: string;
}

/** Issue a meeting card (SPEC point 6): the account and its one-time login link, shown once here. */
export function CardIssuer() {
  const t = useTranslations('AdminUsers');
  const clock = useClock();
  const router = usePathRouter();
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [issued, setIssued] = useState<Issued | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(undefined);
    setIssued(null);
    setCopied(false);
    setBusy(true);
    const answer = await apiPost('/api/admin/cards', { email, firstName: firstName || undefined, lastName: lastName || undefined });
    setBusy(false);
    if (answer.status === 'ok') {
      setIssued(answer as unknown as Issued);
      router.refresh();
    } else setError(answer.errorCode ?? 'error_contact_us');
  }

  return (
    <section aria-labelledby="card-issuer-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="card-issuer-title" className="text-lg font-semibold">
        {t('cardTitle')}
      </h2>
      <p className="mb-3 text-sm text-slate-600">{t('cardIntro')}</p>
      <form onSubmit={submit} className="grid gap-3 md:grid-cols-3">
        <Field label={t('cardEmail')} type="email" required value={email} onChange={(event) => setEmail(event.target.value)} error={error} />
        <Field label={t('cardFirstName')} value={firstName} onChange={(event) => setFirstName(event.target.value)} />
        <Field label={t('cardLastName')} value={lastName} onChange={(event) => setLastName(event.target.value)} />
        <div className="md:col-span-3">
          <button type="submit" className="button-primary" disabled={busy}>
            {t('cardSubmit')}
          </button>
        </div>
      </form>
      {issued && (
        <div role="status" className="mt-4 flex flex-col gap-2 rounded-md bg-brand-soft/40 p-3 text-sm">
          <p>{issued.created ? t('cardCreated', { email: issued.email }) : t('cardExisting', { email: issued.email })}</p>
          <p>{t('cardLink', { date: clock.dateTime(issued.expiresAt) })}</p>
          <code data-testid="card-link" className="break-all rounded bg-white p-2">
            {issued.link}
          </code>
          <div>
            <button
              type="button"
              className="button-secondary"
              onClick={() =>
                navigator.clipboard?.writeText(issued.link).then(
                  () => setCopied(true),
                  () => undefined,
                )
              }
            >
              {copied ? t('copied') : t('copy')}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
