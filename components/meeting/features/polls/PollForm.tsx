'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { OPTIONS_MAX, OPTIONS_MIN, OPTION_MAX, QUESTION_MAX } from '@/lib/meeting/client/polls/poll-messages';
import type { Polls } from '@/lib/meeting/client/polls/polls';

/** "New poll": a question, 2–10 options, one answer or several, anonymous or not; launched to everyone in the call. */
export function PollForm({ polls, onDone }: { polls: Polls; onDone: () => void }) {
  const t = useTranslations('Polls');
  const [question, setQuestion] = useState('');
  const [options, setOptions] = useState(['', '']);
  const [multiple, setMultiple] = useState(false);
  const [anonymous, setAnonymous] = useState(false);
  const [error, setError] = useState<false | 'invalid' | 'no-relay' | 'not-allowed'>(false);
  const ids = { question: useId(), multiple: useId(), anonymous: useId(), anonymousHelp: useId(), error: useId(), note: useId() };
  // "New poll" pressed: the question is where one writes first.
  const questionField = useRef<HTMLTextAreaElement>(null);
  useEffect(() => questionField.current?.focus(), []);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const filled = options.filter((option) => option.trim());
    const result = polls.launch(question, filled, multiple, anonymous);
    if (result !== 'launched') return setError(result);
    onDone();
  }
  const setOption = (index: number, value: string) => setOptions((current) => current.map((option, at) => (at === index ? value : option)));
  const described = error ? ids.error : undefined;

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={t('newPoll')}>
      <p id={ids.note} className="text-sm text-slate-600">
        {t('privacy')}
      </p>
      <div>
        <label htmlFor={ids.question} className="block text-sm font-medium">
          {t('question')}
        </label>
        <textarea
          ref={questionField}
          id={ids.question}
          value={question}
          maxLength={QUESTION_MAX}
          rows={2}
          required
          aria-invalid={error === 'invalid' && !question.trim() ? true : undefined}
          aria-describedby={described}
          onChange={(event) => setQuestion(event.target.value)}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t('options')}</legend>
        {options.map((option, index) => (
          <div key={index} className="flex items-center gap-2">
            <input
              type="text"
              value={option}
              maxLength={OPTION_MAX}
              aria-label={t('option', { number: index + 1 })}
              aria-describedby={described}
              onChange={(event) => setOption(index, event.target.value)}
              className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2"
            />
            {options.length > OPTIONS_MIN && (
              <button
                type="button"
                className="button-secondary shrink-0"
                aria-label={t('removeOption', { number: index + 1 })}
                onClick={() => setOptions((current) => current.filter((_, at) => at !== index))}
              >
                ×
              </button>
            )}
          </div>
        ))}
        {options.length < OPTIONS_MAX && (
          <button type="button" className="button-secondary" onClick={() => setOptions((current) => [...current, ''])}>
            {t('addOption')}
          </button>
        )}
      </fieldset>
      <div className="flex items-center gap-2">
        <input id={ids.multiple} type="checkbox" checked={multiple} onChange={(event) => setMultiple(event.target.checked)} className="h-4 w-4" />
        <label htmlFor={ids.multiple} className="text-sm">
          {t('multiple')}
        </label>
      </div>
      <div className="flex items-start gap-2">
        <input
          id={ids.anonymous}
          type="checkbox"
          checked={anonymous}
          aria-describedby={ids.anonymousHelp}
          onChange={(event) => setAnonymous(event.target.checked)}
          className="mt-0.5 h-4 w-4 shrink-0"
        />
        <div className="min-w-0">
          <label htmlFor={ids.anonymous} className="text-sm">
            {t('anonymous')}
          </label>
          <p id={ids.anonymousHelp} className="text-xs text-slate-600">
            {t('anonymousHelp')}
          </p>
        </div>
      </div>
      {error && (
        <p id={ids.error} role="alert" className="text-sm text-red-700">
          {error === 'no-relay' ? t('noRelay') : error === 'not-allowed' ? t('hostOnlyNote') : t('invalid', { min: OPTIONS_MIN, max: OPTIONS_MAX })}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="button-secondary" onClick={onDone}>
          {t('cancel')}
        </button>
        <button type="submit" className="button-primary">
          {t('launch')}
        </button>
      </div>
    </form>
  );
}
