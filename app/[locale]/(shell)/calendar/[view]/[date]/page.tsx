import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { PlaceholderPage } from '@/components/PlaceholderPage';
import { requirePageUser } from '@/lib/auth/guard';
import { isCalendarDate, isCalendarView } from '@/lib/calendar/routes';
import { routeMetadata } from '@/lib/i18n/metadata';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('calendarDate');

// SPEC point 2, route CalendarDate: /calendar/{view}/{date}.
export default async function CalendarDatePage({
  params,
}: {
  params: Promise<{ locale: string; view: string; date: string }>;
}) {
  const locale = await pageLocale(params);
  await requirePageUser(locale, '/calendar');
  const { view, date } = await params;
  if (!isCalendarView(view) || !isCalendarDate(date)) notFound();
  const t = await getTranslations('Calendar');
  return (
    <PlaceholderPage route="calendarDate">
      <p className="mt-2 text-slate-700">{t('showing', { view: t(view), date })}</p>
    </PlaceholderPage>
  );
}
