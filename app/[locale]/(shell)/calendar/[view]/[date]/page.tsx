import { notFound } from 'next/navigation';
import { requirePageUser } from '@/lib/auth/guard';
import { isCalendarDate, isCalendarView } from '@/lib/calendar/view-path';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { calendarView } from '../../load';

export const generateMetadata = routeMetadata('calendarDate');

// SPEC point 2, route CalendarDate: /calendar/{view}/{date}, in the user's time zone.
export default async function CalendarDatePage({ params }: PageProps<'/[locale]/calendar/[view]/[date]'>) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/calendar');
  const { view, date } = await params;
  if (!isCalendarView(view) || !isCalendarDate(date)) notFound();
  return calendarView(user, view, date);
}
