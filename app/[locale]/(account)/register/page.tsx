import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { RegisterForm } from '@/components/auth/RegisterForm';
import { publicMetadata } from '@/lib/seo/metadata';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = publicMetadata('register');

export default async function RegisterPage({ params }: { params: Promise<{ locale: string }> }) {
  await pageLocale(params);
  const t = await getTranslations('Register');
  return (
    <PageMessages page="register">
      <AuthCard title={t('title')}>
        <RegisterForm />
      </AuthCard>
    </PageMessages>
  );
}
