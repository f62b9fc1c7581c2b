import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { MarketingHome } from '@/components/home/MarketingHome';
import { pageLocale } from '@/lib/i18n/page';
import { publicMetadata } from '@/lib/seo/metadata';
import { VISITOR_HOME_HEADER } from '@/lib/seo/pages';

export const generateMetadata = publicMetadata('home');

// `/` for a visitor (SPEC point 2, home / marketing page), reached only through proxy.ts's rewrite
// of `/`: typed in as /welcome, it does not exist.
export default async function VisitorHomePage({ params }: { params: Promise<{ locale: string }> }) {
  const locale = await pageLocale(params);
  if ((await headers()).get(VISITOR_HOME_HEADER) !== '1') notFound();
  return <MarketingHome locale={locale} />;
}
