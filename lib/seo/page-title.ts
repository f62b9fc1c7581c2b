import 'server-only';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { getBrandName } from '@/lib/configuration/brand';
import { defaultLocale, isLocale } from '@/lib/i18n/locales';
import type { Messages } from '@/lib/i18n/messages';

export type RouteName = keyof Messages['Routes'];

/** SPEC point 2: the page title is the product name followed by the route alias. */
export async function pageTitle(locale: string, route: RouteName): Promise<string> {
  const t = await getTranslations({ locale: isLocale(locale) ? locale : defaultLocale, namespace: 'Routes' });
  return `${await getBrandName()} – ${t(route)}`;
}

/** `generateMetadata` for a page that is one route of SPEC point 2. */
export function routeMetadata(route: RouteName) {
  return async ({ params }: { params: Promise<{ locale: string }> }): Promise<Metadata> => {
    const { locale } = await params;
    return { title: await pageTitle(locale, route) };
  };
}
