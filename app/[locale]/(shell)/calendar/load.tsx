import 'server-only';
import { CalendarScreen } from '@/components/calendar/CalendarScreen';
import { PageMessages } from '@/components/shell/PageMessages';
import type { User } from '@/lib/db/schema';
import { viewDays, viewWindow } from '@/lib/calendar/grid';
import { todayIn, type CalendarView } from '@/lib/calendar/routes';
import { occurrencesBetween } from '@/lib/events/list';
import { normalizeTimezone } from '@/lib/time/timezones';

/** A calendar view of the user's meetings, in the user's time zone; `date` defaults to today. */
export async function calendarView(user: User, view: CalendarView, date?: string) {
  const timeZone = normalizeTimezone(user.timezone);
  const today = todayIn(timeZone);
  const shown = date ?? today;
  const days = viewDays(view, shown);
  const window = viewWindow(days, timeZone);
  const occurrences = await occurrencesBetween(user, new Date(window.start * 1000), new Date(window.end * 1000));
  return (
    <PageMessages page="calendar">
      <CalendarScreen view={view} date={shown} days={days} today={today} timeZone={timeZone} occurrences={occurrences} />
    </PageMessages>
  );
}
