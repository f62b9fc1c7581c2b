import { requirePageUser } from '@/lib/auth/guard';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { calendarView } from './load';

export const generateMetadata = routeMetadata('calendar');

// SPEC point 2: /calendar shows the week of today, in the user's time zone.
export default async function CalendarPage({ params }: PageProps<'/[locale]/calendar'>) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/calendar');
  return calendarView(user, 'week');
}
