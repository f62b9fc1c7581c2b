import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { PublicFrame } from '@/components/public/PublicFrame';
import { config } from '@/lib/environment';
import { isLocale } from '@/lib/i18n/locales';
import { localizedPath } from '@/lib/seo/pages';

// SPEC point 2, "any other path": the page not found, in the public frame and the page's language.
export default async function NotFound() {
  const [t, routes, locale] = await Promise.all([getTranslations('NotFound'), getTranslations('Routes'), getLocale()]);
  return (
    <PublicFrame>
      <div className="mx-auto max-w-xl px-6 py-24 text-center">
        <title>{`${config.brandName} – ${routes('notFound')}`}</title>
        <meta name="robots" content="noindex" />
        <h1 className="text-3xl font-bold">{t('title')}</h1>
        <p className="mt-4 text-slate-600">{t('body')}</p>
        <Link href={localizedPath(isLocale(locale) ? locale : 'en', '/')} className="button-primary mt-8">
          {t('backHome')}
        </Link>
      </div>
    </PublicFrame>
  );
}
