import type { MetadataRoute } from 'next';
import { config } from '@/lib/environment';
import { locales } from '@/lib/i18n/locales';
import { languageAlternates, localizedPath, publicPages } from '@/lib/seo/pages';

// Read at request time: APP_URL may differ between the build and the server.
export const dynamic = 'force-dynamic';

// GET /sitemap.xml – every public page in every language, each with its hreflang alternates.
export default function sitemap(): MetadataRoute.Sitemap {
  const absolute = (path: string) => `${config.appUrl}${path}`;
  return Object.values(publicPages).flatMap((path) =>
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
