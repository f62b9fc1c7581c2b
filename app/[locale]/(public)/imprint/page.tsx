import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { PlainTextDocument } from '@/components/public/PlainTextDocument';
import { pageLocale } from '@/lib/i18n/page';
import { publicSiteSettings } from '@/lib/public-site/settings';
import { publicMetadata } from '@/lib/seo/metadata';

export const generateMetadata = publicMetadata('imprint');

// Issue 35: the imprint / legal notice, only where the operator wrote one in the admin area.
export default async function ImprintPage({ params }: PageProps<'/[locale]/imprint'>) {
  await pageLocale(params);
  const [t, site] = await Promise.all([getTranslations('Imprint'), publicSiteSettings()]);
  if (!site.imprintText) notFound();
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 md:py-16">
      <h1 className="mb-6 text-4xl font-bold text-slate-900">{t('title')}</h1>
      <PlainTextDocument text={site.imprintText} />
    </article>
  );
}
