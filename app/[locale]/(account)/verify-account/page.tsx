import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { ResendActivationForm } from '@/components/auth/ResendActivationForm';
import { Link } from '@/lib/i18n/links';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('verifyAccount');

export default async function VerifyAccountPage({ params }: PageProps<'/[locale]/verify-account'>) {
  await pageLocale(params);
  const t = await getTranslations('Verification');
  return (
    <PageMessages page="verifyAccount">
      <AuthCard title={t('title')}>
        <p className="mb-6 text-slate-700">{t('body')}</p>
        <ResendActivationForm />
        <Link href="/login" className="button-primary mt-6 w-full">
          {t('login')}
        </Link>
      </AuthCard>
    </PageMessages>
  );
}
