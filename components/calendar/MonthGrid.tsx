'use client';

import { useMemo } from 'react';
import { useTranslations } from 'next-intl';
import { placeByDay } from '@/lib/calendar/grid';
import type { OccurrenceView } from '@/lib/events/views/occurrence';
import { Link } from '@/lib/i18n/links';
import { OccurrenceButton } from './OccurrenceButton';
import { useCalendarFormat } from './useCalendarFormat';

const SHOWN_PER_DAY = 3;

/** The month view: a grid of 42 days from the Monday before the 1st (SPEC point 9). */
export function MonthGrid({
  days,
  month,
  today,
  timeZone,
  occurrences,
  onOpen,
}: {
  days: string[];
  /** YYYY-MM of the month shown; the days of its neighbours are dimmed. */
  month: string;
  today: string;
  timeZone: string;
  occurrences: OccurrenceView[];
  onOpen: (occurrence: OccurrenceView) => void;
}) {
  const t = useTranslations('Calendar');
  const format = useCalendarFormat(timeZone);
  const placed = useMemo(() => placeByDay(occurrences, days, timeZone), [occurrences, days, timeZone]);
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
      <div className="grid grid-cols-7">
        {days.slice(0, 7).map((day) => (
          <div key={day} className="truncate border-b border-slate-200 px-1 py-2 text-center text-xs font-medium uppercase text-slate-600">
            {format.weekdayShort(day)}
          </div>
        ))}
        {days.map((day) => {
          const parts = (placed.get(day) ?? []).sort((a, b) => a.startMinute - b.startMinute);
          const hidden = parts.length - SHOWN_PER_DAY;
          return (
            <div
              key={day}
              role="list"
              aria-label={format.fullDate(day)}
              className={`flex min-h-28 min-w-0 flex-col gap-1 border-b border-l border-slate-200 p-1 ${day.startsWith(month) ? '' : 'bg-slate-50 text-slate-500'}`}
            >
              <Link
                href={`/calendar/day/${day}`}
                aria-current={day === today ? 'date' : undefined}
                aria-label={format.fullDate(day)}
                className="self-start rounded-full px-2 text-sm hover:bg-slate-100 aria-[current=date]:bg-brand aria-[current=date]:text-white"
              >
                {format.dayNumber(day)}
              </Link>
              {parts.slice(0, hidden > 0 ? SHOWN_PER_DAY - 1 : SHOWN_PER_DAY).map((part) => (
                <div role="listitem" key={part.item.id}>
                  <OccurrenceButton occurrence={part.item} timeZone={timeZone} onOpen={onOpen} className="w-full" />
                </div>
              ))}
              {hidden > 0 && (
                <Link href={`/calendar/day/${day}`} className="px-1 text-xs text-slate-600 hover:underline">
                  {t('more', { count: hidden + 1 })}
                </Link>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
