'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import type { Polls, PollView } from '@/lib/meeting/client/polls/polls';

/** One poll: the question, a choice per option with its live count and share, "Vote", and "Close poll" for its creator. */
export function PollCard({ poll, polls }: { poll: PollView; polls: Polls }) {
  const t = useTranslations('Polls');
  const [picked, setPicked] = useState<number[]>(poll.ours ?? []);
  const group = useId();
  const creator = poll.creatorName || t('someone');
  const open = !poll.closed;
  const same = poll.ours !== null && picked.length === poll.ours.length && picked.every((index) => poll.ours!.includes(index));

  const toggle = (index: number, checked: boolean) =>
    setPicked((current) => (poll.multiple ? (checked ? [...current, index].sort((a, b) => a - b) : current.filter((at) => at !== index)) : [index]));

  return (
    <article data-testid="poll" aria-labelledby={`${group}-q`} className="rounded-lg border border-slate-200 p-4">
      <h3 id={`${group}-q`} className="font-semibold break-words">
        {poll.question}
      </h3>
      <p className="mt-0.5 text-sm text-slate-600">
        {poll.mine ? t('byYou') : t('by', { name: creator })} · {poll.multiple ? t('several') : t('single')} ·{' '}
        {poll.anonymous && <span data-testid="poll-anonymous">{t('anonymousBadge')} · </span>}
        <span data-testid="poll-status">
          {poll.closed === 'closed' ? t('closed') : poll.closed === 'relay-left' ? t('relayLeft') : poll.closed ? t('paused', { name: creator }) : t('open')}
        </span>
      </p>
      <form
        className="mt-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (picked.length) polls.vote(poll.id, picked);
        }}
      >
        <fieldset disabled={!open}>
          <legend className="sr-only">{poll.question}</legend>
          <ul className="space-y-2">
            {poll.options.map((option, index) => (
              <li key={index}>
                {/* The result beside the label, not in it: an option's name stays its text while the counts move. */}
                <div className="flex items-start gap-2">
                  <label className="flex min-w-0 flex-1 items-start gap-2">
                    <input
                      type={poll.multiple ? 'checkbox' : 'radio'}
                      name={group}
                      checked={picked.includes(index)}
                      onChange={(event) => toggle(index, event.target.checked)}
                      className="mt-1 h-4 w-4 shrink-0"
                    />
                    <span className="min-w-0 flex-1 break-words">{option}</span>
                  </label>
                  <span data-testid="poll-result" className="shrink-0 text-sm text-slate-700 tabular-nums">
                    {t('result', { count: poll.tally.counts[index] ?? 0, percent: poll.tally.percents[index] ?? 0 })}
                  </span>
                </div>
                <div className="mt-1 h-1.5 rounded-full bg-slate-100" aria-hidden="true">
                  <div className="h-1.5 rounded-full bg-sky-600" style={{ width: `${poll.tally.percents[index] ?? 0}%` }} />
                </div>
              </li>
            ))}
          </ul>
        </fieldset>
        <p data-testid="poll-voters" role="status" className="mt-3 text-sm text-slate-700">
          {t('voters', { count: poll.tally.voters })}
          {poll.ours && open ? ` · ${t('voted')}` : ''}
        </p>
        {poll.closed === 'closed' && <p className="mt-1 text-sm text-slate-700">{t('closedNote')}</p>}
        {poll.disagrees && (
          <p role="alert" className="mt-1 text-sm text-red-700">
            {t('disagrees', { name: creator })}
          </p>
        )}
        <div className="mt-3 flex flex-wrap justify-end gap-2">
          {poll.mine && open && (
            <button type="button" className="button-secondary" onClick={() => polls.close(poll.id)}>
              {t('close')}
            </button>
          )}
          {open && (
            <button type="submit" className="button-primary" disabled={!picked.length || same}>
              {poll.ours ? t('changeVote') : t('vote')}
            </button>
          )}
        </div>
      </form>
    </article>
  );
}
