import { Suspense } from 'react';
import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { LoginForm } from '@/components/auth/LoginForm';
import { routeMetadata } from '@/lib/i18n/metadata';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('login');

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
