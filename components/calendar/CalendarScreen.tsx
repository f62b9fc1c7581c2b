'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import type { CalendarView } from '@/lib/calendar/view-path';
import { stepDate } from '@/lib/calendar/grid';
import type { OccurrenceView } from '@/lib/events/views/occurrence';
import { Link } from '@/lib/i18n/links';
import { EventList } from './EventList';
import { HourRange, useHourRange } from './HourRange';
import { MonthGrid } from './MonthGrid';
import { NextMeeting } from './NextMeeting';
import { PhoneMonth, PhoneWeek } from './PhoneViews';
import { TimeGrid } from './TimeGrid';
import { useCalendarFormat } from './useCalendarFormat';
import { useCalendarOccurrences } from './useCalendarOccurrences';
import { LazyDialog, lazyComponent } from '@/components/dialog/lazy';
import { ZoneNote } from '@/components/time/ZoneNote';

// An event's details: loaded when one is opened.
const EventDialog = lazyComponent(() => import('./EventDialog').then((m) => m.EventDialog));

// The calendar feed's address and its renewal: loaded when opened.
const CalendarFeedDialog = lazyComponent(() => import('./CalendarFeedDialog').then((m) => m.CalendarFeedDialog));

const VIEWS: CalendarView[] = ['day', 'week', 'month', 'event'];
const NONE: OccurrenceView[] = [];

export interface CalendarProps {
  view: CalendarView;
  date: string;
  days: string[];
  today: string;
  timeZone: string;
  /** The instants the days cover (unix s): the window asked of GET /api/events/calendar. */
  range: { start: number; end: number };
  /** When the server rendered the page: a new value asks for the window again. */
  rendered: number;
}

/**
 * The calendar (SPEC point 2): day, week and month views and the list, with today, previous and
 * next, a from/to range of hours, create event, and the next meeting in the toolbar. Every move
 * is a link, so the address always names what is shown and the back button works.
 */
export function CalendarScreen({ view, date, days, today, timeZone, range, rendered }: CalendarProps) {
  const t = useTranslations('Calendar');
  const data = useCalendarOccurrences(range.start, range.end, rendered);
  const occurrences = data.state === 'ready' ? data.occurrences : NONE;
  const format = useCalendarFormat(timeZone);
  const [hours, setHours] = useHourRange();
  const [open, setOpen] = useState<OccurrenceView | null>(null);
  const [subscribing, setSubscribing] = useState(false);
  const href = (nextView: CalendarView, nextDate: string) => `/calendar/${nextView}/${nextDate}`;

  const title =
    view === 'day' ? format.fullDate(date) : view === 'week' ? `${format.shortDate(days[0]!)} – ${format.longDate(days[6]!)}` : format.monthYear(date);

  return (
    <section className="mx-auto flex max-w-7xl flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{title}</h1>
          <ZoneNote zone={timeZone} />
        </div>
        <NextMeeting timeZone={timeZone} />
      </div>
      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label={t('toolbar')}>
        <Link href={href(view, today)} className="button-secondary">
          {t('today')}
        </Link>
        <Link href={href(view, stepDate(view, date, -1))} className="button-secondary" aria-label={t('previous')}>
          <span aria-hidden="true">‹</span>
        </Link>
        <Link href={href(view, stepDate(view, date, 1))} className="button-secondary" aria-label={t('next')}>
          <span aria-hidden="true">›</span>
        </Link>
        <nav aria-label={t('views')} className="flex overflow-hidden rounded-md border border-slate-300">
          {VIEWS.map((candidate) => (
            <Link
              key={candidate}
              href={href(candidate, date)}
              aria-current={candidate === view ? 'page' : undefined}
              className="px-3 py-2 text-sm hover:bg-slate-100 aria-[current=page]:bg-brand aria-[current=page]:text-white"
            >
              {t(candidate)}
            </Link>
          ))}
        </nav>
        {/* The phone's week is a list of days: no hours to choose there. */}
        {(view === 'day' || view === 'week') && (
          <div className={view === 'week' ? 'hidden sm:contents' : 'contents'}>
            <HourRange value={hours} onChange={setHours} />
          </div>
        )}
        <button type="button" className="button-secondary ml-auto" onClick={() => setSubscribing(true)}>
          {t('subscribe')}
        </button>
        <Link href={`/schedule?date=${date}`} className="button-primary">
          {t('create')}
        </Link>
      </div>

      {data.state === 'failed' && (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-800">
          {t('loadFailed')}
          <button type="button" className="button-secondary" onClick={data.retry}>
            {t('retry')}
          </button>
        </div>
      )}
      <div aria-busy={data.state === 'loading'} data-testid="calendar-meetings" data-state={data.state}>
        {data.state === 'loading' && (
          <p className="sr-only" role="status">
            {t('loading')}
          </p>
        )}
        {/* Below sm (576 px) the month and the week take a phone's shape (PhoneViews): all seven days in view. */}
        {view === 'month' ? (
          <>
            <div className="sm:hidden">
              <PhoneMonth
                key={date}
                days={days}
                month={date.slice(0, 7)}
                date={date}
                today={today}
                timeZone={timeZone}
                occurrences={occurrences}
                onOpen={setOpen}
              />
            </div>
            <div className="hidden sm:block">
              <MonthGrid days={days} month={date.slice(0, 7)} today={today} timeZone={timeZone} occurrences={occurrences} onOpen={setOpen} />
            </div>
          </>
        ) : view === 'event' ? (
          data.state === 'ready' && <EventList days={days} timeZone={timeZone} occurrences={occurrences} onOpen={setOpen} />
        ) : view === 'week' ? (
          <>
            <div className="sm:hidden">
              <PhoneWeek days={days} today={today} timeZone={timeZone} occurrences={occurrences} onOpen={setOpen} />
            </div>
            <div className="hidden sm:block">
              <TimeGrid days={days} today={today} timeZone={timeZone} hours={hours} occurrences={occurrences} onOpen={setOpen} />
            </div>
          </>
        ) : (
          <TimeGrid days={days} today={today} timeZone={timeZone} hours={hours} occurrences={occurrences} onOpen={setOpen} />
        )}
      </div>

      {subscribing && (
        <LazyDialog>
          <CalendarFeedDialog onClose={() => setSubscribing(false)} />
        </LazyDialog>
      )}
      {open && (
        <LazyDialog>
          <EventDialog occurrence={open} timeZone={timeZone} onClose={() => setOpen(null)} />
        </LazyDialog>
      )}
    </section>
  );
}
