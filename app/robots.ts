import type { MetadataRoute } from 'next';
import { config } from '@/lib/environment';
import { locales } from '@/lib/i18n/locales';
import { localizedPath, privateCalls, privatePages } from '@/lib/seo/pages';

// Read at request time: APP_URL may differ between the build and the server.
export const dynamic = 'force-dynamic';

// GET /robots.txt – the public pages may be indexed; the logged-in areas, meetings and the API not.
export default function robots(): MetadataRoute.Robots {
  const pages = privatePages.flatMap((path) => locales.map((locale) => localizedPath(locale, path)));
  const disallow = [...pages, ...privateCalls];
  return {
    rules: [{ userAgent: '*', allow: '/', disallow }],
    sitemap: `${config.appUrl}/sitemap.xml`,
  };
}
