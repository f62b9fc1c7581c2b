'use client';

import { useId, useState } from 'react';
import { apiPost } from '@/lib/api/browser';
import { RATING_COMMENT_MAX, RATING_VALUES } from '@/lib/ratings/limits';

export interface RateLabels {
  legend: string;
  /** One per star, from 1 to 5: "3 stars – Good". */
  options: string[];
  comment: string;
  commentHint: string;
  submit: string;
  sending: string;
  thanks: string;
  choose: string;
  failed: string;
}

type State = 'editing' | 'sending' | 'sent';

/**
 * The rating form of /rate and of the rate-experience dialog: five stars as a radio group (arrow
 * keys move between them), an optional comment, POST /api/rate. Its labels come from its host,
 * so the public page needs no translation runtime in the browser.
 */
export function RateForm({ labels, onDone }: { labels: RateLabels; onDone?: () => void }) {
  const id = useId();
  const [rating, setRating] = useState<number | null>(null);
  const [state, setState] = useState<State>('editing');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (rating === null) return setError(labels.choose);
    const comment = String(new FormData(event.currentTarget).get('comment') ?? '');
    setState('sending');
    setError(null);
    const answer = await apiPost('/api/rate', { rating, comment });
    if (answer.status === 'ok') {
      setState('sent');
      onDone?.();
    } else {
      setState('editing');
      setError(answer.message ?? labels.failed);
    }
  }

  if (state === 'sent') {
    return (
      <p role="status" className="rounded-xl bg-emerald-50 p-6 text-lg font-medium text-emerald-900">
        {labels.thanks}
      </p>
    );
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-5">
      <fieldset>
        <legend className="mb-2 font-medium">{labels.legend}</legend>
        <div className="flex gap-1">
          {RATING_VALUES.map((value) => (
            <label key={value} className="cursor-pointer" title={labels.options[value - 1]}>
              <input
                type="radio"
                name="rating"
                value={value}
                checked={rating === value}
                onChange={() => {
                  setRating(value);
                  setError(null);
                }}
                className="peer sr-only"
              />
              <span className="sr-only">{labels.options[value - 1]}</span>
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className={`h-10 w-10 rounded peer-focus-visible:outline-3 peer-focus-visible:outline-brand ${rating !== null && value <= rating ? 'text-amber-500' : 'text-slate-300'}`}
                fill="currentColor"
              >
                <path d="m12 2.5 2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z" />
              </svg>
            </label>
          ))}
        </div>
        {rating !== null && <p className="mt-1 text-sm text-slate-600">{labels.options[rating - 1]}</p>}
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-comment`} className="font-medium">
          {labels.comment}
        </label>
        <textarea
          id={`${id}-comment`}
          name="comment"
          rows={4}
          maxLength={RATING_COMMENT_MAX}
          aria-describedby={`${id}-hint`}
          className="w-full rounded-md border border-slate-300 px-3 py-2"
        />
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {labels.commentHint}
        </p>
      </div>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="button-primary" disabled={state === 'sending'}>
          {state === 'sending' ? labels.sending : labels.submit}
        </button>
      </div>
    </form>
  );
}
