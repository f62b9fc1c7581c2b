import { Suspense } from 'react';
import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { LoginForm } from '@/components/auth/LoginForm';
import { publicMetadata } from '@/lib/seo/metadata';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = publicMetadata('login');

export default async function LoginPage({ params }: { params: Promise<{ locale: string }> }) {
  await pageLocale(params);
  const t = await getTranslations('Login');
  return (
    <AuthCard title={t('title')}>
      <Suspense>
        <LoginForm />
      </Suspense>
    </AuthCard>
  );
}
