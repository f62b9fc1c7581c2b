'use client';

import { useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import { apiPost } from '@/lib/api/browser';
import { passwordChange } from '@/lib/meeting/client/keys/room-password-store';
import { useRouter } from '@/lib/navigation/router';
import {
  draftBody,
  draftOf,
  newDraft,
  passwordPlan,
  stepErrors,
  STEP_OF_FIELD,
  WIZARD_STEPS,
  type Draft,
  type DraftErrors,
  type EditedEvent,
  type Step,
} from '@/lib/schedule/draft';
import { useUpcoming } from '@/components/calendar/UpcomingProvider';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import type { SaveScope } from './SaveRecurringDialog';
import { StepAttendees } from './StepAttendees';
import { StepDetails } from './StepDetails';
import { StepRepeat } from './StepRepeat';
import { StepReview } from './StepReview';
import { StepRoom } from './StepRoom';
import type { WizardData } from './types';
import { LazyDialog, lazyComponent } from '@/components/dialog/lazy';

// Shown once, after saving.
const SavedPasswordDialog = lazyComponent(() => import('./SavedPasswordDialog').then((m) => m.SavedPasswordDialog));

// Asked only when saving a change to a series.
const SaveRecurringDialog = lazyComponent(() => import('./SaveRecurringDialog').then((m) => m.SaveRecurringDialog));

const DRAFT_KEY = 'enclave.schedule.draft';
/** SPEC point 4: the schedule draft is reset 500 ms after saving. */
export const DRAFT_RESET_MS = 500;

const subscribeToNothing = () => () => {};

function parseDraft(stored: string | null): Draft | null {
  try {
    const saved = JSON.parse(stored ?? 'null') as Draft | null;
    return saved && typeof saved.date === 'string' && typeof saved.time === 'number' ? saved : null;
  } catch {
    return null;
  }
}

/**
 * The schedule wizard (SPEC point 2), steps 0 to 4: details and time, room and password,
 * attendees and groups, repeat and notifications, review. Each step is checked before the next;
 * an error the server finds sends the person back to the step of its field. A new meeting's draft
 * survives a reload in this tab and is reset 500 ms after it is saved.
 */
export function ScheduleWizard({ data, event, initialDate }: { data: WizardData; event?: EditedEvent; initialDate?: string }) {
  const t = useTranslations('Schedule');
  const router = useRouter();
  const feedback = useApiFeedback();
  const upcoming = useUpcoming();
  const defaultRoom = data.rooms.find((room) => room.isDefault) ?? data.rooms[0];
  const fresh = () => newDraft({ now: Date.now(), timezone: data.timezone, roomId: defaultRoom?.id ?? null, date: initialDate });
  // A new meeting's draft survives a reload in this tab (not when the calendar names a day).
  const stored = useSyncExternalStore(
    subscribeToNothing,
    () => (event || initialDate ? null : window.sessionStorage.getItem(DRAFT_KEY)),
    () => null,
  );
  const restored = useMemo(() => parseDraft(stored), [stored]);
  const [initial] = useState<Draft>(() => (event ? draftOf(event) : fresh()));
  const [edited, setEdited] = useState<Draft | null>(null);
  const draft = edited ?? restored ?? initial;
  const [step, setStep] = useState<Step>(0);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [busy, setBusy] = useState(false);
  const [askScope, setAskScope] = useState(false);
  const [saved, setSaved] = useState<{ password: string; href: string } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const keep = (next: Draft) => {
    setEdited(next);
    if (!event) window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(next));
  };

  const change = (patch: Partial<Draft>) => {
    keep({ ...draft, ...patch });
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as keyof Draft];
      if ('date' in patch || 'time' in patch) delete next.time;
      return next;
    });
  };

  const roomOf = (d: Draft) => data.rooms.find((room) => room.id === d.roomId);

  const goTo = (next: Step) => {
    setStep(next);
    headingRef.current?.focus();
  };

  const check = (upTo: Step, now: number): boolean => {
    for (let s = 0; s <= upTo; s += 1) {
      const found = stepErrors(s as Step, draft, {
        now,
        ownEmail: data.ownEmail,
        roomHasPassword: roomOf(draft)?.hasPassword ?? false,
      });
      if (Object.keys(found).length) {
        setErrors(found);
        goTo(s as Step);
        return false;
      }
    }
    setErrors({});
    return true;
  };

  async function save(scope: SaveScope | null, now: number) {
    if (!check(3, now)) return;
    setAskScope(false);
    setBusy(true);
    const room = roomOf(draft);
    // The meeting's password is its room's (docs/decisions.md). A new one — typed, or generated
    // on the room step — goes as a proof, and only when the person chose to change the room's.
    const plan = passwordPlan(draft, { roomHasPassword: room?.hasPassword === true, editingGenerated: event?.passwordMode === 'generated' });
    const generated = plan.passwordMode === 'generated' && plan.password ? plan.password : null;
    const password = await passwordChange(plan.password);
    const body = draftBody({ ...draft, passwordMode: plan.passwordMode }, password.fields);
    const answer = event
      ? await apiPost('/api/event/update', {
          ...body,
          id: event.occurrence?.id ?? event.id,
          ...(scope === 'following' ? { repeatUpdate: 1 } : scope === 'this' ? { repeatUpdate: 0 } : {}),
          ...(scope === 'all' ? { allEvents: true } : {}),
        })
      : await apiPost('/api/event', body);
    setBusy(false);
    if (answer.status !== 'ok') {
      const code = answer.errorCode ?? 'error_contact_us';
      const field = typeof answer.field === 'string' ? answer.field : undefined;
      if (field && field in STEP_OF_FIELD) {
        setErrors({ [field === 'from' ? 'time' : field]: code });
        goTo(STEP_OF_FIELD[field]!);
      } else feedback.failed(code);
      return;
    }
    if (room) password.settle(room.meetingId);
    feedback.succeeded();
    upcoming.refresh();
    const href = `/calendar/week/${draft.date}`;
    if (!event) {
      window.setTimeout(() => {
        window.sessionStorage.removeItem(DRAFT_KEY);
        setEdited(fresh());
        setStep(0);
      }, DRAFT_RESET_MS);
    }
    if (generated) setSaved({ password: generated, href });
    else router.push(href);
  }

  const isLast = step === WIZARD_STEPS - 1;
  const recurringOccurrence = Boolean(event && event.repeatType !== 'none' && event.occurrence);

  /** Next: check this step and go on; on the last step, save (asking how, for one of a series). */
  function advance(now: number) {
    if (!isLast) {
      if (check(step, now)) goTo((step + 1) as Step);
    } else if (recurringOccurrence) {
      if (check(3, now)) setAskScope(true);
    } else void save(null, now);
  }

  const stepNames = [t('steps.details'), t('steps.room'), t('steps.attendees'), t('steps.repeat'), t('steps.review')];

  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-bold">{event ? t('editTitle') : t('title')}</h1>
      <nav aria-label={t('stepsLabel')} className="mt-4">
        <ol className="flex flex-wrap gap-2">
          {stepNames.map((name, index) => (
            <li key={name}>
              <button
                type="button"
                aria-current={index === step ? 'step' : undefined}
                disabled={index > step}
                onClick={() => goTo(index as Step)}
                className="rounded-full border border-slate-300 px-3 py-1 text-sm aria-[current=step]:border-brand aria-[current=step]:bg-brand aria-[current=step]:text-white disabled:opacity-50"
              >
                {index + 1}. {name}
              </button>
            </li>
          ))}
        </ol>
      </nav>

      {/* Not a <form>: the steps open pickers with forms of their own, and HTML forms do not nest. */}
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6">
        <h2 ref={headingRef} tabIndex={-1} className="mb-4 text-lg font-semibold outline-none">
          {stepNames[step]}
        </h2>
        {step === 0 && <StepDetails draft={draft} errors={errors} onChange={change} />}
        {step === 1 && <StepRoom draft={draft} errors={errors} onChange={change} room={roomOf(draft)} rooms={data.rooms} editing={event} />}
        {step === 2 && <StepAttendees draft={draft} errors={errors} onChange={change} contacts={data.contacts} groups={data.groups} />}
        {step === 3 && <StepRepeat draft={draft} errors={errors} onChange={change} />}
        {step === 4 && <StepReview draft={draft} data={data} />}
        <div className="mt-6 flex justify-between gap-2">
          <button type="button" className="button-secondary" disabled={step === 0} onClick={() => goTo((step - 1) as Step)}>
            {t('back')}
          </button>
          <button type="button" className="button-primary" disabled={busy} onClick={() => advance(Date.now())}>
            {isLast ? t('save') : t('next')}
          </button>
        </div>
      </div>

      {askScope && (
        <LazyDialog>
          <SaveRecurringDialog onChoose={(scope) => void save(scope, Date.now())} onClose={() => setAskScope(false)} />
        </LazyDialog>
      )}
      {saved && (
        <LazyDialog>
          <SavedPasswordDialog password={saved.password} onClose={() => router.push(saved.href)} />
        </LazyDialog>
      )}
    </section>
  );
}
