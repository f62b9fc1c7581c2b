import { requirePageUser } from '@/lib/auth/guard';
import { PlaceholderPage } from '@/components/PlaceholderPage';
import { routeMetadata } from '@/lib/i18n/metadata';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('support');

export default async function SupportPage({ params }: { params: Promise<{ locale: string }> }) {
  const locale = await pageLocale(params);
  await requirePageUser(locale, '/support');
  return <PlaceholderPage route="support" />;
}
