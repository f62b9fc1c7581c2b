'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Field } from '@/components/forms/Field';
import { SelectField } from '@/components/forms/SelectField';
import { useErrorText } from '@/components/forms/useErrorText';
import { Link } from '@/lib/i18n/links';
import { useRouter } from '@/lib/navigation/router';
import type { ApiAnswer } from '@/lib/api/browser';
import { ATTACHMENT_ACCEPT, MAX_ATTACHMENT_BYTES, MESSAGE_MAX, SUBJECT_MAX, SUBJECT_MIN, ticketCategories } from '@/lib/support/categories';

const ALLOWED_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** The browser's check before sending; the server checks the file's bytes again. */
function attachmentProblem(file: File | null): 'attachmentTooLarge' | 'attachmentType' | null {
  if (!file) return null;
  if (file.size > MAX_ATTACHMENT_BYTES) return 'attachmentTooLarge';
  if (!ALLOWED_TYPES.includes(file.type) && !/\.(log|txt)$/i.test(file.name)) return 'attachmentType';
  return null;
}

/** /open-ticket: subject, category, message and an optional image or log file. */
export function OpenTicketForm() {
  const t = useTranslations('OpenTicket');
  const s = useTranslations('Support');
  const errorText = useErrorText();
  const router = useRouter();
  const [subject, setSubject] = useState('');
  const [category, setCategory] = useState<string>('other');
  const [message, setMessage] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setErrors({});
    setFailure(null);
    const problem = attachmentProblem(file);
    if (problem) {
      setFileError(t(problem));
      return;
    }
    const form = new FormData();
    form.set('subject', subject);
    form.set('category', category);
    form.set('message', message);
    if (file) form.set('attachment', file);
    setBusy(true);
    let answer: ApiAnswer;
    try {
      const response = await fetch('/api/tickets', { method: 'POST', body: form, credentials: 'include', headers: { accept: 'application/json' } });
      answer = ((await response.json().catch(() => null)) ?? { status: 'error', errorCode: 'error_contact_us' }) as ApiAnswer;
    } catch {
      answer = { status: 'error', errorCode: 'error_contact_us' };
    }
    setBusy(false);
    if (answer.status === 'ok' && typeof answer.id === 'string') {
      router.push(`/view-ticket/${answer.id}`);
      return;
    }
    const code = answer.errorCode ?? 'error_contact_us';
    const field = typeof answer.field === 'string' ? answer.field : null;
    if (field === 'attachment') setFileError(answer.message ?? errorText(code) ?? code);
    else if (field && ['subject', 'category', 'message'].includes(field)) setErrors({ [field]: code });
    else setFailure(answer.message ?? errorText(code) ?? code);
  }

  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="mb-4 text-2xl font-bold">{t('title')}</h1>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <Field
          label={s('subject')}
          hint={t('subjectHint')}
          value={subject}
          onChange={(event) => setSubject(event.target.value)}
          required
          minLength={SUBJECT_MIN}
          maxLength={SUBJECT_MAX}
          error={errors.subject}
        />
        <SelectField label={s('category')} value={category} onChange={(event) => setCategory(event.target.value)} error={errors.category}>
          {ticketCategories.map((value) => (
            <option key={value} value={value}>
              {s(`categories.${value}`)}
            </option>
          ))}
        </SelectField>
        <div className="flex flex-col gap-1">
          <label htmlFor="ticket-message" className="text-sm font-medium text-slate-700">
            {t('message')}
          </label>
          <textarea
            id="ticket-message"
            rows={8}
            required
            maxLength={MESSAGE_MAX}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            aria-describedby="ticket-message-hint"
            aria-invalid={errors.message ? true : undefined}
            className="rounded-md border border-slate-300 px-3 py-2 aria-invalid:border-red-600"
          />
          <p id="ticket-message-hint" className="text-xs text-slate-500">
            {t('messageHint')}
          </p>
          {errors.message && (
            <p role="alert" className="text-sm text-red-700">
              {errorText(errors.message)}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="ticket-attachment" className="text-sm font-medium text-slate-700">
            {t('attachment')}
          </label>
          <input
            id="ticket-attachment"
            type="file"
            accept={ATTACHMENT_ACCEPT}
            aria-describedby="ticket-attachment-hint"
            aria-invalid={fileError ? true : undefined}
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null;
              setFile(chosen);
              const problem = attachmentProblem(chosen);
              setFileError(problem ? t(problem) : null);
            }}
          />
          <p id="ticket-attachment-hint" className="text-xs text-slate-500">
            {t('attachmentHint')}
          </p>
          {fileError && (
            <p role="alert" className="text-sm text-red-700">
              {fileError}
            </p>
          )}
        </div>
        {failure && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {failure}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Link href="/support" className="button-secondary">
            {t('cancel')}
          </Link>
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? t('sending') : t('submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
