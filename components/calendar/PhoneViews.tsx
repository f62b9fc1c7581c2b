'use client';

import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslations } from 'next-intl';
import { placeByDay } from '@/lib/calendar/grid';
import { colorOf } from '@/lib/colors';
import type { OccurrenceView } from '@/lib/events/views/occurrence';
import { Link } from '@/lib/i18n/links';
import { OccurrenceButton } from './OccurrenceButton';
import { useCalendarFormat } from './useCalendarFormat';

// The calendar below sm (576 px), as a phone calendar shows it (issue 33): all seven days side by
// side in the width there is, never a box that scrolls sideways and hides the weekend.

interface PhoneViewProps {
  days: string[];
  today: string;
  timeZone: string;
  occurrences: OccurrenceView[];
  onOpen: (occurrence: OccurrenceView) => void;
}

const DOTS = 3;

function useByDay(occurrences: OccurrenceView[], days: string[], timeZone: string) {
  return useMemo(() => {
    const placed = placeByDay(occurrences, days, timeZone);
    return new Map([...placed].map(([day, parts]) => [day, parts.sort((a, b) => a.startMinute - b.startMinute).map((part) => part.item)]));
  }, [occurrences, days, timeZone]);
}

/** One day's meetings as a list, or "No meetings". */
function DayMeetings({ meetings, timeZone, onOpen }: { meetings: OccurrenceView[]; timeZone: string; onOpen: (occurrence: OccurrenceView) => void }) {
  const t = useTranslations('Calendar');
  if (!meetings.length) return <p className="px-1 py-1 text-sm text-slate-500">{t('noMeetings')}</p>;
  return (
    <ul className="flex flex-col gap-1.5">
      {meetings.map((occurrence) => (
        <li key={`${occurrence.id}-${occurrence.from}`}>
          <OccurrenceButton occurrence={occurrence} timeZone={timeZone} onOpen={onOpen} className="w-full py-1.5 text-sm" />
        </li>
      ))}
    </ul>
  );
}

/** Where an arrow key moves in the month's 7-column grid; null for any other key. */
export function monthGridStep(key: string, index: number, length: number): number | null {
  const moves: Record<string, number> = {
    ArrowLeft: -1,
    ArrowRight: 1,
    ArrowUp: -7,
    ArrowDown: 7,
    Home: -(index % 7),
    End: 6 - (index % 7),
  };
  if (!(key in moves)) return null;
  return Math.min(length - 1, Math.max(0, index + moves[key]!));
}

/**
 * The month on a phone: a compact grid of the 42 days, each with a dot per meeting (up to three);
 * the chosen day's meetings are listed below it. One Tab stop for the grid (the chosen day), the
 * arrow keys move between days, as in a date picker: 42 Tab stops were a long way to the list.
 */
export function PhoneMonth({ days, month, date, today, timeZone, occurrences, onOpen }: PhoneViewProps & { month: string; date: string }) {
  const t = useTranslations('Calendar');
  const format = useCalendarFormat(timeZone);
  const byDay = useByDay(occurrences, days, timeZone);
  const [chosen, setChosen] = useState(days.includes(date) ? date : days.find((day) => day.startsWith(month))!);
  const meetings = byDay.get(chosen) ?? [];
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const moveWithKeys = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = monthGridStep(event.key, days.indexOf(chosen), days.length);
    if (next === null) return;
    event.preventDefault();
    setChosen(days[next]!);
    buttons.current[next]?.focus();
  };
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-7 rounded-lg border border-slate-200 bg-white p-1" onKeyDown={moveWithKeys}>
        {days.slice(0, 7).map((day) => (
          <div key={day} aria-hidden="true" className="py-1 text-center text-[0.6875rem] font-medium uppercase text-slate-600">
            {format.weekdayShort(day)}
          </div>
        ))}
        {days.map((day, index) => {
          const count = byDay.get(day)?.length ?? 0;
          return (
            <button
              key={day}
              ref={(element) => {
                buttons.current[index] = element;
              }}
              type="button"
              tabIndex={day === chosen ? 0 : -1}
              aria-pressed={day === chosen}
              aria-current={day === today ? 'date' : undefined}
              aria-label={t('dayMeetings', { date: format.fullDate(day), count })}
              onClick={() => setChosen(day)}
              className={`flex h-12 flex-col items-center justify-start gap-1 rounded-md pt-1 text-sm aria-pressed:bg-brand-soft aria-pressed:font-semibold ${
                day.startsWith(month) ? 'text-slate-900' : 'text-slate-400'
              }`}
            >
              <span className={`flex h-6 w-6 items-center justify-center rounded-full ${day === today ? 'bg-brand text-white' : ''}`}>
                {format.dayNumber(day)}
              </span>
              <span className="flex gap-0.5" aria-hidden="true">
                {(byDay.get(day) ?? []).slice(0, DOTS).map((occurrence) => (
                  <span
                    key={`${occurrence.id}-${occurrence.from}`}
                    className="h-1.5 w-1.5 rounded-full"
                    style={{ backgroundColor: colorOf(occurrence.room?.color ?? 1) }}
                  />
                ))}
              </span>
            </button>
          );
        })}
      </div>
      <section aria-labelledby={`day-${chosen}`} className="flex flex-col gap-2">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id={`day-${chosen}`} className="font-semibold">
            {format.fullDate(chosen)}
          </h2>
          <Link href={`/calendar/day/${chosen}`} className="shrink-0 text-sm text-brand hover:underline">
            {t('openDay')}
          </Link>
        </div>
        <DayMeetings meetings={meetings} timeZone={timeZone} onOpen={onOpen} />
      </section>
    </div>
  );
}

/** The week on a phone: its seven days one under the other, each with its meetings. */
export function PhoneWeek({ days, today, timeZone, occurrences, onOpen }: PhoneViewProps) {
  const format = useCalendarFormat(timeZone);
  const byDay = useByDay(occurrences, days, timeZone);
  return (
    <ol className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {days.map((day) => (
        <li key={day} className="flex gap-3 px-3 py-2.5" aria-label={format.fullDate(day)}>
          <Link
            href={`/calendar/day/${day}`}
            aria-current={day === today ? 'date' : undefined}
            aria-label={format.fullDate(day)}
            className="flex w-12 shrink-0 flex-col items-center rounded-md py-0.5 hover:bg-slate-100 aria-[current=date]:text-brand"
          >
            <span className="text-xs uppercase">{format.weekdayShort(day)}</span>
            <span className="text-lg font-semibold">{format.dayNumber(day)}</span>
          </Link>
          <div className="min-w-0 flex-1 self-center">
            <DayMeetings meetings={byDay.get(day) ?? []} timeZone={timeZone} onOpen={onOpen} />
          </div>
        </li>
      ))}
    </ol>
  );
}
