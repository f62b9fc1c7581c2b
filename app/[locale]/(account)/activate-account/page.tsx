import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { Link } from '@/lib/i18n/links';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('activateAccount');

const outcomes = ['activated', 'invalid', 'too_many_attempts'] as const;

// Where the activation link (GET /invitation/activate) lands, with its outcome.
export default async function ActivateAccountPage({ params, searchParams }: PageProps<'/[locale]/activate-account'>) {
  await pageLocale(params);
  const { status } = await searchParams;
  const outcome = outcomes.find((o) => o === status) ?? 'missing';
  const t = await getTranslations('Activation');
  const routes = await getTranslations('Routes');
  return (
    <AuthCard title={routes('activateAccount')}>
      <p role={outcome === 'activated' ? 'status' : 'alert'} className="mb-6">
        {t(outcome)}
      </p>
      <Link href="/login" className="button-primary">
        {t('login')}
      </Link>
    </AuthCard>
  );
}
