import { Suspense } from 'react';
import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { LoginForm } from '@/components/auth/LoginForm';
import { publicMetadata } from '@/lib/seo/metadata';
import { pageLocale } from '@/lib/i18n/page';
import { providerButtons } from '@/lib/auth/oidc/configured';

export const generateMetadata = publicMetadata('login');

// Rendered per request: the "Sign in with …" buttons follow OIDC_PROVIDERS as the server runs.
export default async function LoginPage({ params, searchParams }: PageProps<'/[locale]/login'>) {
  await Promise.all([pageLocale(params), searchParams]);
  const t = await getTranslations('Login');
  return (
    <AuthCard title={t('title')}>
      <Suspense>
        <LoginForm providers={providerButtons()} />
      </Suspense>
    </AuthCard>
  );
}
