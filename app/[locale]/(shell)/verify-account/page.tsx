import { PlaceholderPage } from '@/components/PlaceholderPage';
import { routeMetadata } from '@/lib/i18n/metadata';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('verifyAccount');

export default async function VerifyAccountPage({ params }: { params: Promise<{ locale: string }> }) {
  await pageLocale(params);
  return <PlaceholderPage route="verifyAccount" />;
}
