import { getTranslations } from 'next-intl/server';
import { pageLocale } from '@/lib/i18n/page';
import { publicMetadata } from '@/lib/seo/metadata';
import { messageList } from '@/lib/i18n/message-list';
import { BuildInfo } from '@/components/public/BuildInfo';
import { APP_VERSION } from '@/lib/version';

export const generateMetadata = publicMetadata('security');

const SECTIONS = ['keys', 'verify', 'limits'] as const;

// docs/e2ee-crypto.md: what end-to-end encryption protects in a meeting, and what it cannot (docs/security.md).
export default async function SecurityPage({ params }: PageProps<'/[locale]/security'>) {
  await pageLocale(params);
  const t = await getTranslations('Security');
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-12 text-slate-700 sm:px-6 md:py-16">
      <h1 className="text-4xl font-bold text-slate-900">{t('title')}</h1>
      <p>{t('intro')}</p>
      {SECTIONS.map((section) => (
        <section key={section} aria-labelledby={`security-${section}`}>
          <h2 id={`security-${section}`} className="mb-2 text-lg font-semibold text-slate-900">
            {t(`${section}Title`)}
          </h2>
          <ul className="list-disc space-y-2 pl-6">
            {messageList(t, section).map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
      <section aria-labelledby="security-browsers">
        <h2 id="security-browsers" className="mb-2 text-lg font-semibold text-slate-900">
          {t('browsersTitle')}
        </h2>
        <p>{t('browsers')}</p>
      </section>
      {/* Issue 47: the build this server runs, and how anyone checks it (docs/security.md). */}
      <section id="build" aria-labelledby="security-build" className="scroll-mt-20">
        <h2 id="security-build" className="mb-2 text-lg font-semibold text-slate-900">
          {t('buildTitle')}
        </h2>
        <p className="mb-3">{t('buildIntro')}</p>
        <p className="mb-3 font-medium">{t('buildVersion', { version: APP_VERSION })}</p>
        <BuildInfo
          labels={{
            commit: t('buildCommit'),
            manifest: t('buildManifest'),
            command: t('buildCommand'),
            loading: t('buildLoading'),
            unavailable: t('buildUnavailable'),
          }}
        />
        <p className="mt-3">{t('buildHow')}</p>
      </section>
    </article>
  );
}
