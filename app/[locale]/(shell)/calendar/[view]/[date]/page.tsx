import { notFound } from 'next/navigation';
import { CalendarScreen } from '@/components/calendar/CalendarScreen';
import { requirePageUser } from '@/lib/auth/guard';
import { viewDays, viewWindow } from '@/lib/calendar/grid';
import { isCalendarDate, isCalendarView, todayIn } from '@/lib/calendar/routes';
import { occurrencesBetween } from '@/lib/events/list';
import { routeMetadata } from '@/lib/i18n/metadata';
import { pageLocale } from '@/lib/i18n/page';
import { normalizeTimezone } from '@/lib/time/timezones';

export const generateMetadata = routeMetadata('calendarDate');

// SPEC point 2, route CalendarDate: /calendar/{view}/{date}, in the user's time zone.
export default async function CalendarDatePage({
  params,
}: {
  params: Promise<{ locale: string; view: string; date: string }>;
}) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/calendar');
  const { view, date } = await params;
  if (!isCalendarView(view) || !isCalendarDate(date)) notFound();
  const timeZone = normalizeTimezone(user.timezone);
  const days = viewDays(view, date);
  const window = viewWindow(days, timeZone);
  const occurrences = await occurrencesBetween(user, new Date(window.start * 1000), new Date(window.end * 1000));
  return (
    <CalendarScreen view={view} date={date} days={days} today={todayIn(timeZone)} timeZone={timeZone} occurrences={occurrences} />
  );
}
