import { requirePageUser } from '@/lib/auth/guard';
import { PlaceholderPage } from '@/components/PlaceholderPage';
import { routeMetadata } from '@/lib/i18n/metadata';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('calendar');

export default async function CalendarPage({ params }: { params: Promise<{ locale: string }> }) {
  const locale = await pageLocale(params);
  await requirePageUser(locale, '/calendar');
  return <PlaceholderPage route="calendar" />;
}
