'use client';

import { useTranslations } from 'next-intl';
import type { OccurrenceView } from '@/lib/events/views/occurrence';
import { dateIn } from '@/lib/time/zoned';
import { useEventTitle } from '@/components/time/useEventTitle';
import { useCalendarFormat } from './useCalendarFormat';

/** The list view: the month's meetings with day, date, room, time and title (SPEC point 2). */
export function EventList({
  days,
  timeZone,
  occurrences,
  onOpen,
}: {
  days: string[];
  timeZone: string;
  occurrences: OccurrenceView[];
  onOpen: (occurrence: OccurrenceView) => void;
}) {
  const t = useTranslations('Calendar');
  const format = useCalendarFormat(timeZone);
  const title = useEventTitle();
  const shown = occurrences.filter((o) => {
    const day = dateIn(o.from * 1000, timeZone);
    return day >= days[0]! && day <= days[days.length - 1]!;
  });
  if (!shown.length) return <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600">{t('empty')}</p>;
  return (
    <>
      {/* Below sm the five columns become one card per meeting: nothing to scroll sideways. */}
      <ul className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white sm:hidden">
        {shown.map((occurrence) => {
          const day = dateIn(occurrence.from * 1000, timeZone);
          return (
            <li key={occurrence.id} className={`flex flex-col gap-0.5 px-4 py-3 text-sm ${occurrence.isPast ? 'text-slate-500' : ''}`}>
              <button type="button" className="text-left font-medium text-brand hover:underline" onClick={() => onOpen(occurrence)}>
                {title(occurrence.title)}
              </button>
              <span>
                {format.weekdayLong(day)}, {format.longDate(day)} · {format.timeRange(occurrence.from, occurrence.to)}
              </span>
              {occurrence.room && <span className="text-slate-600">{occurrence.room.name}</span>}
            </li>
          );
        })}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white sm:block">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-200 text-xs uppercase text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-2">
                {t('columnDay')}
              </th>
              <th scope="col" className="px-4 py-2">
                {t('columnDate')}
              </th>
              <th scope="col" className="px-4 py-2">
                {t('columnRoom')}
              </th>
              <th scope="col" className="px-4 py-2">
                {t('columnTime')}
              </th>
              <th scope="col" className="px-4 py-2">
                {t('columnTitle')}
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((occurrence) => {
              const day = dateIn(occurrence.from * 1000, timeZone);
              return (
                <tr key={occurrence.id} className={`border-b border-slate-100 ${occurrence.isPast ? 'text-slate-500' : ''}`}>
                  <td className="px-4 py-2">{format.weekdayLong(day)}</td>
                  <td className="px-4 py-2">{format.longDate(day)}</td>
                  <td className="px-4 py-2">{occurrence.room?.name ?? '—'}</td>
                  <td className="px-4 py-2 whitespace-nowrap">{format.timeRange(occurrence.from, occurrence.to)}</td>
                  <td className="px-4 py-2">
                    <button type="button" className="text-left font-medium text-brand hover:underline" onClick={() => onOpen(occurrence)}>
                      {title(occurrence.title)}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
