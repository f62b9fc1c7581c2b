import { ScheduleWizard } from '@/components/schedule/ScheduleWizard';
import { requirePageUser } from '@/lib/auth/guard';
import { isCalendarDate } from '@/lib/calendar/view-path';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { wizardData } from './load';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('schedule');

// SPEC point 2: /schedule, the wizard for a new meeting; ?date=YYYY-MM-DD comes from the calendar.
export default async function SchedulePage({ params, searchParams }: PageProps<'/[locale]/schedule'>) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/schedule');
  const { date } = await searchParams;
  const initialDate = typeof date === 'string' && isCalendarDate(date) ? date : undefined;
  return (
    <PageMessages page="schedule">
      <ScheduleWizard data={await wizardData(user)} initialDate={initialDate} />
    </PageMessages>
  );
}
