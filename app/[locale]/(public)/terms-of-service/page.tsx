import { getFormatter, getTranslations } from 'next-intl/server';
import { PlainTextDocument } from '@/components/public/PlainTextDocument';
import { TERMS_UPDATED, TermsText, termsBodyKey, termsSections } from '@/components/terms/TermsText';
import { getBrandName } from '@/lib/configuration/brand';
import { pageLocale } from '@/lib/i18n/page';
import { publicSiteSettings } from '@/lib/public-site/settings';
import { publicMetadata } from '@/lib/seo/metadata';
import { messageList } from '@/lib/i18n/message-list';
import { sfuConfigured } from '@/lib/sfu/nodes';
import { mediaTextValues } from '@/lib/sfu/public-texts';

export const generateMetadata = publicMetadata('termsOfService');

// SPEC point 2: the terms of service, which registration asks to agree to. The operator's own
// text from the admin area (issue 48, like the privacy policy), else the built-in one, which
// leaves out trial and payment on a server without billing and says how this server carries calls.
export default async function TermsPage({ params }: PageProps<'/[locale]/terms-of-service'>) {
  await pageLocale(params);
  const [t, format, site, brand] = await Promise.all([getTranslations('Terms'), getFormatter(), publicSiteSettings(), getBrandName()]);
  if (site.termsText) {
    return (
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 md:py-16">
        <h1 className="mb-6 text-4xl font-bold text-slate-900">{t('title')}</h1>
        <PlainTextDocument text={site.termsText} />
      </article>
    );
  }
  const server = { billingOn: site.billingOn, hasSfu: sfuConfigured() };
  const sections = termsSections(site.billingOn).map((key) => ({
    key,
    title: t(`sections.${key}.title`),
    body: messageList(t, termsBodyKey(key, server), { brand, ...mediaTextValues }),
  }));
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 md:py-16">
      <h1 className="text-4xl font-bold text-slate-900">{t('title')}</h1>
      <p className="mt-2 mb-8 text-sm text-slate-600">{t('updated', { date: format.dateTime(TERMS_UPDATED, { dateStyle: 'long', timeZone: 'UTC' }) })}</p>
      <TermsText intro={t('intro', { brand })} sections={sections} closing={t('selfHosted', { brand })} />
    </article>
  );
}
