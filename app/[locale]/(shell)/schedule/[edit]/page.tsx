import { notFound } from 'next/navigation';
import { ScheduleWizard } from '@/components/schedule/ScheduleWizard';
import { ApiError } from '@/lib/errors';
import { requirePageUser } from '@/lib/auth/guard';
import { getEvent } from '@/lib/events/get';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { wizardData } from '../load';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('scheduleEdit');

// SPEC point 2: /schedule/{edit}, the wizard on one of the user's meetings or one occurrence of a series.
export default async function ScheduleEditPage({ params }: PageProps<'/[locale]/schedule/[edit]'>) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/schedule');
  const { edit } = await params;
  const event = await getEvent(user, decodeURIComponent(edit)).catch((error: unknown) => {
    if (error instanceof ApiError) return null;
    throw error;
  });
  if (!event) notFound();
  return (
    <PageMessages page="schedule">
      <ScheduleWizard key={edit} data={await wizardData(user)} event={event} />
    </PageMessages>
  );
}
