'use client';

import { useEffect, useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiPost, type ApiAnswer } from '@/lib/api/browser';

/**
 * A meeting-card login link opens /login#card=<code>: read the code, take it out of the address
 * bar at once, and log in with it (POST /vip/activate). The fragment never reaches the server.
 */
export function useCardLink(onAnswer: (answer: ApiAnswer) => void) {
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const code = new URLSearchParams(window.location.hash.slice(1)).get('card');
    if (!code) return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    let live = true;
    queueMicrotask(() => live && setBusy(true));
    apiPost('/vip/activate', { code }).then((answer) => {
      if (!live) return;
      setBusy(false);
      onAnswer(answer);
    });
    return () => {
      live = false;
    };
    // Runs once, for the address the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return busy;
}

/** "Meeting card": ask for a one-time login link by e-mail (POST /vip). */
export function CardLinkRequest() {
  const t = useTranslations('Login');
  const id = useId();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const answer = await apiPost('/vip', { email });
    if (answer.status === 'ok') setSent(true);
  }

  return (
    <details className="rounded-md border border-slate-200 p-3 text-sm">
      {/* The second line is visible while closed (issue 33, point 10): what a meeting card is. */}
      <summary className="cursor-pointer">
        <span className="font-medium">{t('cardTitle')}</span>
        <span className="mt-1 block text-slate-600">{t('cardExplain')}</span>
      </summary>
      {sent ? (
        <p role="status" className="mt-2">
          {t('cardSent')}
        </p>
      ) : (
        <form onSubmit={submit} className="mt-2 flex flex-col gap-2">
          <p className="text-slate-600">{t('cardIntro')}</p>
          <label htmlFor={id}>{t('cardEmail')}</label>
          <input
            id={id}
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            className="rounded-md border border-slate-300 px-3 py-2"
          />
          <button type="submit" className="button-secondary">
            {t('cardSubmit')}
          </button>
        </form>
      )}
    </details>
  );
}
