'use client';

import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import type { Polls, PollView } from '@/lib/meeting/client/polls/polls';
import { PollCard } from './PollCard';
import { PollForm } from './PollForm';

/**
 * The call's polls on the screen, loaded with their code (components/meeting/call/CallView.tsx
 * imports this lazily): the "Polls" dialog, and a note when someone else starts a poll while the
 * dialog is closed — a note, not a dialog, so it never takes the focus from what the person is doing.
 */
export default function PollsCorner({ polls, open, onOpen, onClose }: { polls: Polls; open: boolean; onOpen: () => void; onClose: () => void }) {
  const t = useTranslations('Polls');
  const views = useSyncExternalStore(polls.subscribe, polls.getSnapshot, polls.getSnapshot);
  const arrived = useSyncExternalStore(polls.subscribe, polls.getNotice, polls.getNotice);
  // Once the dialog is open, the note has done its job.
  useEffect(() => {
    if (open) polls.dismissNotice();
  }, [open, polls, arrived]);

  return (
    <>
      {arrived && !open && (
        <section aria-label={t('title')} className="shrink-0 bg-slate-900 px-2 py-2">
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-white px-3 py-2 text-slate-900">
            <p role="status" className="min-w-0 text-sm break-words">
              <span className="font-semibold">{t('arrived', { name: arrived.creatorName || t('someone') })}</span> <span>{arrived.question}</span>
            </p>
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="button-secondary" onClick={() => polls.dismissNotice()}>
                {t('dismiss')}
              </button>
              <button type="button" className="button-primary" onClick={onOpen}>
                {t('show')}
              </button>
            </div>
          </div>
        </section>
      )}
      {open && <PollsDialog polls={polls} views={views} onClose={onClose} />}
    </>
  );
}

function PollsDialog({ polls, views, onClose }: { polls: Polls; views: PollView[]; onClose: () => void }) {
  const t = useTranslations('Polls');
  // Read at each change of the polls (views): the host's setting arrives like a poll.
  const canLaunch = views && polls.canLaunch();
  const [writing, setWriting] = useState(views.length === 0 && canLaunch);
  // After the form (launched or cancelled) the focus goes to "New poll", where the form was, not to the page.
  const newPoll = useRef<HTMLButtonElement>(null);
  const [formDone, setFormDone] = useState(false);
  useEffect(() => {
    if (formDone) newPoll.current?.focus();
  }, [formDone]);
  return (
    <Dialog title={t('title')} onClose={onClose} size="max-w-xl">
      <div className="max-h-[70dvh] space-y-4 overflow-y-auto">
        {polls.selfIsHost() && (
          <div className="flex items-center gap-2">
            <input
              id="polls-host-only"
              type="checkbox"
              checked={polls.hostOnly}
              onChange={(event) => polls.setHostOnly(event.target.checked)}
              className="h-4 w-4"
            />
            <label htmlFor="polls-host-only" className="text-sm">
              {t('hostOnly')}
            </label>
          </div>
        )}
        {!canLaunch ? (
          <p role="status" className="text-sm text-slate-600">
            {t('hostOnlyNote')}
          </p>
        ) : writing ? (
          <PollForm
            polls={polls}
            onDone={() => {
              setWriting(false);
              setFormDone(true);
            }}
          />
        ) : (
          <div className="flex justify-end">
            <button
              ref={newPoll}
              type="button"
              className="button-primary"
              onClick={() => {
                setWriting(true);
                setFormDone(false);
              }}
            >
              {t('newPoll')}
            </button>
          </div>
        )}
        {views.length === 0 && !writing && <p className="text-sm text-slate-600">{t('empty')}</p>}
        <ul aria-label={t('list')} className="space-y-3">
          {views.map((poll) => (
            <li key={poll.id}>
              <PollCard poll={poll} polls={polls} />
            </li>
          ))}
        </ul>
      </div>
    </Dialog>
  );
}
