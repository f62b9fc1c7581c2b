import 'server-only';
import { CalendarScreen } from '@/components/calendar/CalendarScreen';
import { PageMessages } from '@/components/shell/PageMessages';
import type { User } from '@/lib/db/schema';
import { viewDays, viewWindow } from '@/lib/calendar/grid';
import { todayIn, type CalendarView } from '@/lib/calendar/view-path';
import { normalizeTimezone } from '@/lib/time/timezones';

/**
 * A calendar view of the user's meetings, in the user's time zone; `date` defaults to today. The
 * page names the days and the window they cover; the browser asks for that window's meetings in
 * the compact form (components/calendar/useCalendarOccurrences.ts), revalidated by ETag.
 */
export async function calendarView(user: User, view: CalendarView, date?: string) {
  const timeZone = normalizeTimezone(user.timezone);
  const today = todayIn(timeZone);
  const shown = date ?? today;
  const days = viewDays(view, shown);
  const range = viewWindow(days, timeZone);
  return (
    <PageMessages page="calendar">
      <CalendarScreen view={view} date={shown} days={days} today={today} timeZone={timeZone} range={range} rendered={Date.now()} />
    </PageMessages>
  );
}
