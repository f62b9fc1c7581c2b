import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { Link } from '@/lib/i18n/links';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('confirmEmail');

const outcomes = ['confirmed', 'invalid_reset_link', 'email_exists', 'too_many_attempts'] as const;

// Where the e-mail change link (GET /invitation/confirm-email) lands, with its outcome.
export default async function ConfirmEmailPage({ params, searchParams }: PageProps<'/[locale]/confirm-email'>) {
  await pageLocale(params);
  const { status } = await searchParams;
  const outcome = outcomes.find((o) => o === status) ?? 'missing';
  const t = await getTranslations('EmailConfirmation');
  const routes = await getTranslations('Routes');
  return (
    <AuthCard title={routes('confirmEmail')}>
      <p role={outcome === 'confirmed' ? 'status' : 'alert'} className="mb-6">
        {t(outcome)}
      </p>
      <Link href="/login" className="button-primary">
        {t('login')}
      </Link>
    </AuthCard>
  );
}
