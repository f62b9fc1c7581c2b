import { getTranslations } from 'next-intl/server';
import { LinkOutcome } from '@/components/auth/LinkOutcome';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('activateAccount');

// Where the activation link (GET /invitation/activate) lands, with its outcome.
export default async function ActivateAccountPage({ params, searchParams }: PageProps<'/[locale]/activate-account'>) {
  await pageLocale(params);
  const routes = await getTranslations('Routes');
  return (
    <LinkOutcome
      title={routes('activateAccount')}
      namespace="Activation"
      outcomes={['activated', 'invalid', 'too_many_attempts']}
      success="activated"
      status={(await searchParams).status}
    />
  );
}
