import { getTranslations } from 'next-intl/server';
import { DefaultPrivacyPolicy } from '@/components/public/DefaultPrivacyPolicy';
import { PlainTextDocument } from '@/components/public/PlainTextDocument';
import { getBrandName } from '@/lib/configuration/brand';
import { pageLocale } from '@/lib/i18n/page';
import { publicSiteSettings } from '@/lib/public-site/settings';
import { publicMetadata } from '@/lib/seo/metadata';
import { sfuConfigured } from '@/lib/sfu/nodes';

export const generateMetadata = publicMetadata('privacy');

// Issue 35: the privacy policy. The operator's own text from the admin area, else a built-in one
// that is true of this software (what is stored, what never reaches the server, the cookies).
export default async function PrivacyPage({ params }: PageProps<'/[locale]/privacy'>) {
  await pageLocale(params);
  const [t, site, brand] = await Promise.all([getTranslations('Privacy'), publicSiteSettings(), getBrandName()]);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 md:py-16">
      <h1 className="mb-6 text-4xl font-bold text-slate-900">{t('title')}</h1>
      {site.privacyText ? (
        <PlainTextDocument text={site.privacyText} />
      ) : (
        <DefaultPrivacyPolicy brand={brand} contactEmail={site.contactEmail} billingOn={site.billingOn} hasSfu={sfuConfigured()} />
      )}
    </article>
  );
}
