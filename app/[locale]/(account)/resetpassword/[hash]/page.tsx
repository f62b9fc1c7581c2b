import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { ResetPasswordForm } from '@/components/auth/ResetPasswordForm';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('resetPassword');

export default async function ResetPasswordPage({ params }: PageProps<'/[locale]/resetpassword/[hash]'>) {
  await pageLocale(params);
  const { hash } = await params;
  const t = await getTranslations('ResetPassword');
  return (
    <PageMessages page="resetPassword">
      <AuthCard title={t('title')}>
        <ResetPasswordForm link={hash} />
      </AuthCard>
    </PageMessages>
  );
}
