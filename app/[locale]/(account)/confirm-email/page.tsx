import { getTranslations } from 'next-intl/server';
import { LinkOutcome } from '@/components/auth/LinkOutcome';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('confirmEmail');

// Where the e-mail change link (GET /invitation/confirm-email) lands, with its outcome.
export default async function ConfirmEmailPage({ params, searchParams }: PageProps<'/[locale]/confirm-email'>) {
  await pageLocale(params);
  const routes = await getTranslations('Routes');
  return (
    <LinkOutcome
      title={routes('confirmEmail')}
      namespace="EmailConfirmation"
      outcomes={['confirmed', 'invalid_reset_link', 'email_exists', 'too_many_attempts']}
      success="confirmed"
      status={(await searchParams).status}
    />
  );
}
