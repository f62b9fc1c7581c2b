'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { apiDelete } from '@/lib/api/browser';
import type { OccurrenceView } from '@/lib/events/views/occurrence';
import { TextAreaField } from '@/components/forms/TextAreaField';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import { Dialog } from '@/components/dialog/Dialog';
import { useEventTitle } from '@/components/time/useEventTitle';
import { useUpcoming } from './UpcomingProvider';

/**
 * SPEC point 4: deleting a recurring meeting asks "this event" or "all events"; a single one
 * asks to confirm (the simple delete modal). Either way an optional message goes to the
 * attendees with the cancellation.
 */
export function DeleteEventDialog({ occurrence, onClose }: { occurrence: OccurrenceView; onClose: () => void }) {
  const t = useTranslations('Calendar');
  const feedback = useApiFeedback();
  const title = useEventTitle();
  const upcoming = useUpcoming();
  const recurring = occurrence.repeatType !== 'none';
  const [scope, setScope] = useState<'one' | 'all'>('one');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  async function remove(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const target = recurring && scope === 'all' ? occurrence.repeat : occurrence.id;
    const answer = await apiDelete(`/api/event/${encodeURIComponent(target)}`, { message: message.trim() || undefined });
    setBusy(false);
    if (answer.status !== 'ok') return feedback.failed(answer.errorCode ?? 'error_contact_us');
    feedback.succeeded();
    upcoming.refresh();
    onClose();
  }

  return (
    <Dialog title={recurring ? t('deleteRecurringTitle') : t('deleteTitle')} onClose={onClose} size="max-w-md">
      <form onSubmit={remove} className="flex flex-col gap-4">
        {recurring ? (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-slate-700">{t('deleteWhich', { title: title(occurrence.title) })}</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="scope" checked={scope === 'one'} onChange={() => setScope('one')} />
              {t('thisEvent')}
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="scope" checked={scope === 'all'} onChange={() => setScope('all')} />
              {t('allEvents')}
            </label>
          </fieldset>
        ) : (
          <p className="text-slate-700">{t('deleteConfirm', { title: title(occurrence.title) })}</p>
        )}
        <TextAreaField label={t('cancelMessage')} value={message} maxLength={2000} onChange={(e) => setMessage(e.target.value)} />
        <div className="flex justify-end gap-2">
          <button type="button" className="button-secondary" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" disabled={busy} className="button-danger">
            {t('delete')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
