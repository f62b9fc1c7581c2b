import { getTranslations } from 'next-intl/server';
import { BillingSection } from '@/components/billing/BillingSection';
import { SettingsForm } from '@/components/settings/SettingsForm';
import { OpenAccountButton } from '@/components/settings/OpenAccountButton';
import { billingOn } from '@/lib/configuration/billing-mode';
import { getCurrentUser } from '@/lib/auth/session';
import { Link } from '@/lib/i18n/links';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { normalizeTimezone } from '@/lib/time/timezones';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('settings');

// "Preferences" (issue 48, point 6: two screens were called Settings): time zone, tooltips,
// language, theme and, where prices depend on it, the region. Name, e-mail, password and two-factor
// sign-in are the "Account & security" modal's; this page opens it.
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
            <p className="mb-6 flex flex-wrap items-center gap-3 text-sm text-slate-600">
              {t('accountHint')}
              <OpenAccountButton label={t('openAccount')} />
            </p>
            <SettingsForm
              initial={{
                timezone: normalizeTimezone(user.timezone),
                tooltips: user.tooltips,
                preferredRegion: user.preferredRegion,
                // The language the page is in, which the person reads (issue 48: /de/settings
                // showed the stored "English" to someone reading German); saving stores it.
                lang: locale,
                theme: user.theme,
              }}
              // The region only sets the currency of prices: without billing it means nothing.
              showRegion={billingOn()}
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
