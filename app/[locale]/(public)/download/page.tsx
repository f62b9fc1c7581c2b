import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { InstallAppButton } from '@/components/public/InstallAppButton';
import { config } from '@/lib/environment';
import { billingOn } from '@/lib/configuration/billing-mode';
import { getDownloads, type DownloadPlatform } from '@/lib/configuration/configuration';
import { pageLocale } from '@/lib/i18n/page';
import { publicMetadata } from '@/lib/seo/metadata';
import { localizedPath } from '@/lib/seo/pages';

export const generateMetadata = publicMetadata('download');

/** SPEC points 1 and 9: the minimum system each platform states, in the page's language. */
const MINIMUM: Record<DownloadPlatform, 'outlook' | 'android' | 'ios' | 'desktop'> = {
  outlook: 'outlook',
  android: 'android',
  ios: 'ios',
  windows: 'desktop',
  mac: 'desktop',
  linux: 'desktop',
};

const FEED_APPS = ['feedOutlook', 'feedGoogle', 'feedApple'] as const;

// SPEC point 1, the software hub: every download of GET /api/configuration/downloads, installing
// the web app, and the private calendar feed for other calendar apps. Issue 35: a private server
// (billing off) shows only what it offers, not cards for installers it has not got.
export default async function DownloadPage({ params }: PageProps<'/[locale]/download'>) {
  const locale = await pageLocale(params);
  const [t, all] = await Promise.all([getTranslations('Download'), getDownloads()]);
  const downloads = billingOn() ? all : all.filter(({ url }) => url);
  const brand = config.brandName;

  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 md:py-16">
      <h1 className="text-4xl font-bold text-slate-900">{t('title', { brand })}</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-700">{t('intro', { brand })}</p>

      {downloads.length > 0 && (
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {downloads.map(({ platform, url }) => {
            const name = t(`platforms.${platform}`);
            return (
              <li key={platform} aria-labelledby={`download-${platform}`} className="flex flex-col rounded-xl border border-slate-200 p-5">
                <h2 id={`download-${platform}`} className="text-lg font-semibold text-slate-900">
                  {name}
                </h2>
                <p className="mt-1 text-sm text-slate-600">{t('needs', { minimum: t(`minimum.${MINIMUM[platform]}`) })}</p>
                <div className="mt-4 flex-1 content-end">
                  {url ? (
                    <a href={url} className="button-primary" aria-label={t('getFor', { platform: name })} rel="noopener">
                      {t('get')}
                    </a>
                  ) : (
                    <p className="text-sm text-slate-600">
                      <strong className="block font-medium text-slate-800">{t('notOffered')}</strong>
                      {t('notOfferedHint', { brand })}
                    </p>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <section aria-labelledby="install" className="mt-14 rounded-xl bg-brand-soft p-6">
        <h2 id="install" className="text-2xl font-semibold text-slate-900">
          {t('installTitle', { brand })}
        </h2>
        <p className="mt-2 text-slate-700">{t('installText', { brand })}</p>
        <div className="mt-4">
          <InstallAppButton label={t('installButton', { brand })} installedLabel={t('installed', { brand })} />
        </div>
        <p className="mt-4 text-sm text-slate-700">{t('installManual')}</p>
      </section>

      <section aria-labelledby="feed" className="mt-14">
        <h2 id="feed" className="text-2xl font-semibold text-slate-900">
          {t('feedTitle')}
        </h2>
        <p className="mt-2 text-slate-700">{t('feedIntro')}</p>
        <p className="mt-2 text-slate-700">
          {t.rich('feedFind', {
            calendar: (chunks) => (
              <Link href={localizedPath(locale, '/calendar')} className="font-medium text-brand underline underline-offset-2">
                {chunks}
              </Link>
            ),
          })}
        </p>
        <ul className="mt-4 list-disc space-y-2 pl-6 text-slate-700">
          {FEED_APPS.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
        <p className="mt-4 text-sm text-slate-600">{t('feedPrivate')}</p>
      </section>
    </div>
  );
}
