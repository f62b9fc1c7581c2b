'use client';

import { useId, useState } from 'react';
import { apiPost } from '@/lib/api/browser';
import { CONTACT_LIMITS } from '@/lib/users/contact-limits';

export interface ContactSalesLabels {
  name: string;
  email: string;
  message: string;
  send: string;
  sending: string;
  sentTitle: string;
  /** With "{email}" where the address goes. */
  sent: string;
  another: string;
  failed: string;
}

type State = { kind: 'editing' } | { kind: 'sending' } | { kind: 'sent'; email: string } | { kind: 'error'; message: string };

/**
 * The contact-sales form (SPEC point 2): name, e-mail, message → POST /contact. The browser checks
 * the fields natively; the server checks them again and its answer carries the message in the
 * page's language (a refused field, or too_many_attempts when the rate limit is reached).
 */
export function ContactSalesForm({ labels }: { labels: ContactSalesLabels }) {
  const id = useId();
  const [state, setState] = useState<State>({ kind: 'editing' });

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form)) as Record<string, string>;
    setState({ kind: 'sending' });
    const answer = await apiPost('/contact', { name: data.name, email: data.email, message: data.message });
    if (answer.status === 'ok') {
      form.reset();
      setState({ kind: 'sent', email: String(data.email ?? '') });
    } else {
      setState({ kind: 'error', message: answer.message ?? labels.failed });
    }
  }

  if (state.kind === 'sent') {
    return (
      <div role="status" className="rounded-xl border border-emerald-300 bg-emerald-50 p-6">
        <h3 className="text-lg font-semibold text-emerald-900">{labels.sentTitle}</h3>
        <p className="mt-2 text-emerald-900">{labels.sent.replace('{email}', state.email)}</p>
        <button type="button" className="button-secondary mt-4" onClick={() => setState({ kind: 'editing' })}>
          {labels.another}
        </button>
      </div>
    );
  }

  const field = 'w-full rounded-md border border-slate-300 px-3 py-2';
  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" aria-describedby={state.kind === 'error' ? `${id}-error` : undefined}>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-name`} className="font-medium">
          {labels.name}
        </label>
        <input
          id={`${id}-name`}
          name="name"
          autoComplete="name"
          required
          minLength={CONTACT_LIMITS.nameMin}
          maxLength={CONTACT_LIMITS.nameMax}
          className={field}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-email`} className="font-medium">
          {labels.email}
        </label>
        <input id={`${id}-email`} name="email" type="email" autoComplete="email" required maxLength={CONTACT_LIMITS.emailMax} className={field} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-message`} className="font-medium">
          {labels.message}
        </label>
        <textarea id={`${id}-message`} name="message" required rows={5} maxLength={CONTACT_LIMITS.messageMax} className={field} />
      </div>
      {state.kind === 'error' && (
        <p id={`${id}-error`} role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          {state.message}
        </p>
      )}
      <div>
        <button type="submit" className="button-primary" disabled={state.kind === 'sending'}>
          {state.kind === 'sending' ? labels.sending : labels.send}
        </button>
      </div>
    </form>
  );
}
