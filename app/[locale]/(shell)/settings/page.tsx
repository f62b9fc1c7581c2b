import { getTranslations } from 'next-intl/server';
import { BillingSection } from '@/components/billing/BillingSection';
import { SettingsForm } from '@/components/settings/SettingsForm';
import { getCurrentUser } from '@/lib/auth/session';
import { isLocale } from '@/lib/i18n/locales';
import { Link } from '@/lib/i18n/links';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { normalizeTimezone } from '@/lib/time/timezones';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('settings');

// The route has no login flag (SPEC point 2): a visitor without a session is asked to log in.
export default async function SettingsPage({ params }: PageProps<'/[locale]/settings'>) {
  const locale = await pageLocale(params);
  const t = await getTranslations('Settings');
  const user = await getCurrentUser();
  return (
    <PageMessages page="settings">
      <section className="mx-auto max-w-3xl">
        <h1 className="mb-6 text-2xl font-bold">{t('title')}</h1>
        {user ? (
          <>
            <SettingsForm
              initial={{
                timezone: normalizeTimezone(user.timezone),
                tooltips: user.tooltips,
                preferredRegion: user.preferredRegion,
                lang: isLocale(user.lang) ? user.lang : locale,
                theme: user.theme,
              }}
            />
            <BillingSection user={user} locale={locale} />
          </>
        ) : (
          <div>
            <p className="mb-4">{t('loginNeeded')}</p>
            <Link href="/login?next=%2Fsettings" className="button-primary">
              {t('login')}
            </Link>
          </div>
        )}
      </section>
    </PageMessages>
  );
}
