import 'server-only';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { billingOn } from '@/lib/configuration/billing-mode';
import { config } from '@/lib/environment';
import { pageTitle } from '@/lib/seo/page-title';
import { defaultLocale, htmlLang, isLocale, type Locale } from '@/lib/i18n/locales';
import { publicSiteSettings } from '@/lib/public-site/settings';
import { sfuConfigured } from '@/lib/sfu/nodes';
import { mediaTextKey } from '@/lib/sfu/public-texts';
import { languageAlternates, localizedPath, publicPages, type PublicPage } from './pages';

/** The Open Graph image, drawn at build time (app/og-image.png/route.tsx). */
export const OG_IMAGE = { url: '/og-image.png', width: 1200, height: 630 } as const;

/** Without billing there is no trial or price (issue 35): the descriptions that promise one have a variant. */
const NO_BILLING_DESCRIPTIONS: Partial<Record<PublicPage, 'homeNoTrial' | 'registerNoTrial' | 'faqNoBilling'>> = {
  home: 'homeNoTrial',
  register: 'registerNoTrial',
  faq: 'faqNoBilling',
};

/**
 * `generateMetadata` for an indexable public page: its title (SPEC point 2: brand – alias), a
 * description of its own, the canonical address in this language, hreflang alternates for all
 * twelve plus x-default, and Open Graph / Twitter cards.
 */
export function publicMetadata(page: PublicPage) {
  return async ({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> => {
    const requested = (await params).locale;
    const locale: Locale = isLocale(requested) ? requested : defaultLocale;
    const t = await getTranslations({ locale, namespace: 'Meta' });
    const path = publicPages[page];
    // The visitor's home is the product's page (or, on a private server, its plain home), not the
    // dashboard its route alias names.
    const privateHome = page === 'home' && (await publicSiteSettings()).homePage === 'private';
    const title = await pageTitle(locale, page === 'home' ? (privateHome ? 'homePrivate' : 'homePublic') : page);
    const key = privateHome ? 'homePrivate' : billingOn() ? page : (NO_BILLING_DESCRIPTIONS[page] ?? page);
    // The product's home describes how calls travel on this server (issue 48): with an SFU, its twin.
    const description = t(key === 'home' || key === 'homeNoTrial' ? mediaTextKey(key, sfuConfigured()) : key, { brand: config.brandName });
    const url = localizedPath(locale, path);
    return {
      title,
      description,
      alternates: { canonical: url, languages: languageAlternates(path) },
      openGraph: {
        type: 'website',
        siteName: config.brandName,
        title,
        description,
        url,
        locale: htmlLang(locale).replace('-', '_'),
        images: [{ ...OG_IMAGE, alt: t('imageAlt', { brand: config.brandName }) }],
      },
      twitter: { card: 'summary_large_image', title, description, images: [OG_IMAGE.url] },
    };
  };
}
