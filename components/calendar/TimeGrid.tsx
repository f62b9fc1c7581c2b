'use client';

import { useMemo } from 'react';
import { useTranslations } from 'next-intl';
import { placeByDay } from '@/lib/calendar/grid';
import type { OccurrenceView } from '@/lib/events/views/occurrence';
import { Link } from '@/lib/i18n/links';
import type { Hours } from './HourRange';
import { OccurrenceButton } from './OccurrenceButton';
import { useCalendarFormat } from './useCalendarFormat';

const HOUR_HEIGHT = 48;

/** The day and week views: a column per day, meetings placed by time within the hour range. */
export function TimeGrid({
  days,
  today,
  timeZone,
  hours,
  occurrences,
  onOpen,
}: {
  days: string[];
  today: string;
  timeZone: string;
  hours: Hours;
  occurrences: OccurrenceView[];
  onOpen: (occurrence: OccurrenceView) => void;
}) {
  const t = useTranslations('Calendar');
  const format = useCalendarFormat(timeZone);
  const placed = useMemo(() => placeByDay(occurrences, days, timeZone), [occurrences, days, timeZone]);
  const first = hours.from * 60;
  const last = hours.to * 60;
  const height = (hours.to - hours.from) * HOUR_HEIGHT;
  const top = (minute: number) => ((Math.min(Math.max(minute, first), last) - first) / 60) * HOUR_HEIGHT;

  return (
    // No minimum width: a week's seven columns share what there is (below sm the week is PhoneWeek).
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
      <div className="grid" style={{ gridTemplateColumns: `3.5rem repeat(${days.length}, minmax(0, 1fr))` }}>
        <div className="border-b border-slate-200" />
        {days.map((day) => {
          const parts = placed.get(day) ?? [];
          const outside = parts.filter((p) => p.endMinute <= first || p.startMinute >= last).length;
          return (
            <div key={day} className="min-w-0 border-b border-l border-slate-200 px-1 py-2 text-center">
              <Link
                href={`/calendar/day/${day}`}
                aria-current={day === today ? 'date' : undefined}
                className="inline-flex flex-col items-center rounded px-2 hover:bg-slate-100 aria-[current=date]:text-brand"
              >
                <span className="text-xs uppercase">{format.weekdayShort(day)}</span>
                <span className="text-lg font-semibold">{format.dayNumber(day)}</span>
              </Link>
              {outside > 0 && <p className="text-xs text-slate-500">{t('outsideHours', { count: outside })}</p>}
            </div>
          );
        })}

        <div className="relative" style={{ height }} aria-hidden="true">
          {Array.from({ length: hours.to - hours.from }, (_, i) => (
            <span key={i} className="absolute right-2 -translate-y-1/2 text-xs text-slate-500" style={{ top: i * HOUR_HEIGHT }}>
              {i === 0 ? '' : format.clock((hours.from + i) * 60)}
            </span>
          ))}
        </div>
        {days.map((day) => (
          <div
            key={day}
            role="list"
            aria-label={format.fullDate(day)}
            className="relative border-l border-slate-200"
            style={{
              height,
              backgroundImage: `repeating-linear-gradient(to bottom, transparent 0, transparent ${HOUR_HEIGHT - 1}px, rgb(226 232 240) ${HOUR_HEIGHT - 1}px, rgb(226 232 240) ${HOUR_HEIGHT}px)`,
            }}
          >
            {(placed.get(day) ?? [])
              .filter((p) => p.endMinute > first && p.startMinute < last)
              .map((part) => (
                <div
                  key={`${part.item.id}-${part.date}`}
                  role="listitem"
                  className="absolute px-0.5"
                  style={{
                    top: top(part.startMinute),
                    height: Math.max(top(part.endMinute) - top(part.startMinute), 20),
                    left: `${(part.column / part.columns) * 100}%`,
                    width: `${100 / part.columns}%`,
                  }}
                >
                  <OccurrenceButton occurrence={part.item} timeZone={timeZone} onOpen={onOpen} className="h-full w-full" />
                </div>
              ))}
          </div>
        ))}
      </div>
    </div>
  );
}
