import type { MetadataRoute } from 'next';
import { config } from '@/lib/environment';
import { locales } from '@/lib/i18n/locales';
import { publicSite } from '@/lib/seo/site-shape';
import { existingPublicPages, languageAlternates, localizedPath, publicPages } from '@/lib/seo/pages';

// Read at request time: APP_URL may differ between the build and the server, and the pages that
// exist follow the operator's settings (issue 35).
export const dynamic = 'force-dynamic';

// GET /sitemap.xml – every public page this server has, in every language, each with its hreflang alternates.
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const absolute = (path: string) => `${config.appUrl}${path}`;
  const pages = existingPublicPages(await publicSite()).map((page) => publicPages[page]);
  return pages.flatMap((path) =>
    locales.map((locale) => ({
      url: absolute(localizedPath(locale, path)),
      changeFrequency: 'monthly' as const,
      priority: path === '/' ? 1 : 0.6,
      alternates: {
        languages: Object.fromEntries(Object.entries(languageAlternates(path)).map(([lang, href]) => [lang, absolute(href)])),
      },
    })),
  );
}
