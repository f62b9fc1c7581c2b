import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { ForgotPasswordForm } from '@/components/auth/ForgotPasswordForm';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('forgotPassword');

export default async function ForgotPasswordPage({ params }: PageProps<'/[locale]/forgotPassword'>) {
  await pageLocale(params);
  const t = await getTranslations('ForgotPassword');
  return (
    <PageMessages page="forgotPassword">
      <AuthCard title={t('title')}>
        <ForgotPasswordForm />
      </AuthCard>
    </PageMessages>
  );
}
