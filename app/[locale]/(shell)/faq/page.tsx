import { PlaceholderPage } from '@/components/PlaceholderPage';
import { routeMetadata } from '@/lib/i18n/metadata';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('faq');

export default async function FaqPage({ params }: { params: Promise<{ locale: string }> }) {
  await pageLocale(params);
  return <PlaceholderPage route="faq" />;
}
