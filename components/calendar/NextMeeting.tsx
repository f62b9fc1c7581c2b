'use client';

import { useSyncExternalStore } from 'react';
import { useTranslations } from 'next-intl';
import { Link } from '@/lib/i18n/links';
import { dateIn } from '@/lib/time/zoned';
import { nextMeeting, useUpcoming } from './UpcomingProvider';
import { useCalendarFormat } from './useCalendarFormat';
import { useEventTitle } from '@/components/time/useEventTitle';

const TICK_MS = 30_000;

function subscribeToClock(tick: () => void) {
  const timer = window.setInterval(tick, TICK_MS);
  return () => window.clearInterval(timer);
}

/** The toolbar's next meeting (SPEC point 2), from the upcoming events polled every 60 s. */
export function NextMeeting({ timeZone }: { timeZone: string }) {
  const t = useTranslations('Calendar');
  const format = useCalendarFormat(timeZone);
  const title = useEventTitle();
  const { events } = useUpcoming();
  // "Now" moves on between polls, in steps of 30 s; on the server there is none, so both agree.
  const now = useSyncExternalStore(
    subscribeToClock,
    () => Math.floor(Date.now() / TICK_MS) * TICK_MS,
    () => null,
  );
  if (now === null || events === null) return null;
  const next = nextMeeting(events, now);
  return (
    <p className="text-sm text-slate-700" aria-live="polite" data-testid="next-meeting">
      {next ? (
        <>
          <span className="font-medium">{next.from * 1000 <= now ? t('nowOn') : t('nextMeeting')}</span>{' '}
          <Link href={`/calendar/day/${dateIn(next.from * 1000, timeZone)}`} className="text-brand hover:underline">
            {t('nextMeetingAt', { title: title(next.title), when: format.dateTime(next.from) })}
          </Link>
        </>
      ) : (
        t('noUpcoming')
      )}
    </p>
  );
}
