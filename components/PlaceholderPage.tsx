import { getTranslations } from 'next-intl/server';
import { config } from '@/lib/environment';
import type { RouteName } from '@/lib/seo/page-title';
import { Link } from '@/lib/i18n/links';

/** A route that exists and navigates, whose screen a later feature fills in. */
export async function PlaceholderPage({ route, children }: { route: RouteName; children?: React.ReactNode }) {
  const routes = await getTranslations('Routes');
  const t = await getTranslations('Placeholder');
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-bold">{routes(route)}</h1>
      {children}
      <p className="mt-4 text-slate-600">{t('comingSoon', { brand: config.brandName })}</p>
      <Link href="/" className="button-secondary mt-6">
        {t('backHome')}
      </Link>
    </section>
  );
}
