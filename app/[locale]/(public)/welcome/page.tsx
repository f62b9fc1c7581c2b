import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { MarketingHome } from '@/components/home/MarketingHome';
import { PrivateHome } from '@/components/public/PrivateHome';
import { getBrandName } from '@/lib/configuration/brand';
import { pageLocale } from '@/lib/i18n/page';
import { publicSite } from '@/lib/seo/site-shape';
import { publicMetadata } from '@/lib/seo/metadata';
import { sfuConfigured } from '@/lib/sfu/nodes';
import { VISITOR_HOME_HEADER } from '@/lib/seo/pages';

export const generateMetadata = publicMetadata('home');

// `/` for a visitor (SPEC point 2, home / marketing page), reached only through proxy.ts's rewrite
// of `/`: typed in as /welcome, it does not exist. A private server shows its plain home instead
// (issue 35: the admin's setting, else HOME_PAGE, else what the billing mode implies).
export default async function VisitorHomePage({ params }: PageProps<'/[locale]/welcome'>) {
  const locale = await pageLocale(params);
  if ((await headers()).get(VISITOR_HOME_HEADER) !== '1') notFound();
  const site = await publicSite();
  if (site.homePage === 'private') {
    return <PrivateHome locale={locale} brand={await getBrandName()} sentence={site.homeSentence} registrationOpen={site.registrationOpen} />;
  }
  return <MarketingHome locale={locale} billingOn={site.billingOn} contactSales={site.contactEmail !== null} hasSfu={sfuConfigured()} />;
}
