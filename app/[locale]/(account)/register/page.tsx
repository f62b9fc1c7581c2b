import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { RegisterForm } from '@/components/auth/RegisterForm';
import { RegistrationRefused } from '@/components/auth/RegistrationRefused';
import { publicMetadata } from '@/lib/seo/metadata';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';
import { billingOn } from '@/lib/configuration/billing-mode';
import { invitedEmail } from '@/lib/registration/invitations';
import { registrationSettings } from '@/lib/registration/settings';

export const generateMetadata = publicMetadata('register');

// Issue 35: the page says why registration is not possible instead of showing a form that fails.
export default async function RegisterPage({ params, searchParams }: PageProps<'/[locale]/register'>) {
  await pageLocale(params);
  const t = await getTranslations('Register');
  const query = await searchParams;
  const token = typeof query.invitation === 'string' ? query.invitation : undefined;
  const [settings, email] = await Promise.all([registrationSettings(), invitedEmail(token)]);
  const invitation = token && email ? { token, email } : null;
  const refusal =
    settings.mode === 'closed'
      ? 'closed'
      : token && !invitation
        ? 'invitationInvalid'
        : settings.mode === 'invitation' && !invitation
          ? 'invitationOnly'
          : null;
  return (
    <PageMessages page="register">
      <AuthCard title={t('title')}>
        {refusal ? (
          <RegistrationRefused reason={refusal} mayRegisterWithout={refusal === 'invitationInvalid' && settings.mode !== 'invitation'} />
        ) : (
          <RegisterForm invitation={invitation} domains={settings.mode === 'domains' && !invitation ? settings.domains : null} trial={billingOn()} />
        )}
      </AuthCard>
    </PageMessages>
  );
}
