'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import type { OccurrenceView } from '@/lib/events/views/occurrence';
import { Link } from '@/lib/i18n/links';
import { Dialog } from '@/components/dialog/Dialog';
import { useEventTitle } from '@/components/time/useEventTitle';
import { zoneName } from '@/lib/time/clock';
import { DeleteEventDialog } from './DeleteEventDialog';
import { useCalendarFormat } from './useCalendarFormat';

/** A meeting's details from the calendar, with join, edit and delete. */
export function EventDialog({ occurrence, timeZone, onClose }: { occurrence: OccurrenceView; timeZone: string; onClose: () => void }) {
  const t = useTranslations('Calendar');
  const format = useCalendarFormat(timeZone);
  const title = useEventTitle();
  const [deleting, setDeleting] = useState(false);
  if (deleting) return <DeleteEventDialog occurrence={occurrence} onClose={onClose} />;
  const recurring = occurrence.repeatType !== 'none';
  return (
    <Dialog title={title(occurrence.title)} onClose={onClose}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="font-medium text-slate-600">{t('when')}</dt>
        <dd>
          {format.dateTime(occurrence.from)} – {format.time(occurrence.to)}
          {occurrence.timezone !== timeZone && <span className="block text-slate-500">{t('eventZone', { zone: zoneName(occurrence.timezone) })}</span>}
        </dd>
        {recurring && (
          <>
            <dt className="font-medium text-slate-600">{t('repeats')}</dt>
            <dd>{t(`repeat.${occurrence.repeatType}`)}</dd>
          </>
        )}
        <dt className="font-medium text-slate-600">{t('room')}</dt>
        <dd>{occurrence.room?.name ?? '—'}</dd>
        {occurrence.description && (
          <>
            <dt className="font-medium text-slate-600">{t('description')}</dt>
            <dd className="whitespace-pre-wrap">{occurrence.description}</dd>
          </>
        )}
      </dl>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <button type="button" className="button-secondary" onClick={() => setDeleting(true)}>
          {t('delete')}
        </button>
        {!occurrence.isPast && (
          <Link href={`/schedule/${occurrence.id}`} className="button-secondary">
            {t('edit')}
          </Link>
        )}
        {occurrence.link && !occurrence.isPast && (
          <a href={occurrence.link} className="button-primary">
            {t('join')}
          </a>
        )}
      </div>
    </Dialog>
  );
}
