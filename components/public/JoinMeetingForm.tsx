'use client';

import { usePathRouter } from '@/lib/navigation/router';
import { useId, useState } from 'react';
import { joinTarget } from '@/lib/public-site/join-target';
import { meetingApiPath } from '@/lib/meeting-address';

export interface JoinMeetingLabels {
  title: string;
  label: string;
  hint: string;
  submit: string;
  checking: string;
  empty: string;
  invalid: string;
  otherServer: string;
  notFound: string;
}

/**
 * "Join a meeting" on a private server's home (issue 35): a whole link or a bare meeting id. The
 * format is checked here, the meeting's existence by the lobby's own call (GET /api/meeting/{id}),
 * so a typo is answered on this page; then the browser opens the join page, #k= key included.
 */
export function JoinMeetingForm({ labels, localePrefix }: { labels: JoinMeetingLabels; localePrefix: string }) {
  const id = useId();
  const router = usePathRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('meeting') ?? '');
    const target = joinTarget(value, window.location.origin);
    if (!target.ok) {
      setError(labels[target.reason]);
      return;
    }
    setError(null);
    setBusy(true);
    const answer = await fetch(meetingApiPath(target.meetingId), { headers: { accept: 'application/json' } }).catch(() => null);
    if (answer?.status === 404) {
      setBusy(false);
      setError(labels.notFound);
      return;
    }
    // Anything else (a password, a full room, the network) is the lobby's to explain.
    router.push(`${localePrefix}${target.path}`);
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-title`} className="flex flex-col gap-2">
      <h2 id={`${id}-title`} className="text-xl font-semibold text-slate-900">
        {labels.title}
      </h2>
      <label htmlFor={`${id}-meeting`} className="text-sm font-medium text-slate-700">
        {labels.label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={`${id}-meeting`}
          name="meeting"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2"
        />
        <button type="submit" className="button-primary shrink-0" disabled={busy}>
          {busy ? labels.checking : labels.submit}
        </button>
      </div>
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        {labels.hint}
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
