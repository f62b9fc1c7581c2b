// The public pages of SPEC point 2 that a search engine may index, in every locale: what the
// sitemap lists, what gets canonical and hreflang tags, what the service worker keeps offline.
import { defaultLocale, htmlLang, isLocale, locales, type Locale } from '@/lib/i18n/locales';

export const publicPages = {
  home: '/',
  enterprise: '/enterprise',
  faq: '/faq',
  download: '/download',
  termsOfService: '/terms-of-service',
  security: '/security',
  rate: '/rate',
  register: '/register',
  login: '/login',
  privacy: '/privacy',
  imprint: '/imprint',
} as const;

export type PublicPage = keyof typeof publicPages;

/** What decides which public pages a server has (issue 35: the operator's public pages). */
export interface SiteShape {
  homePage: 'marketing' | 'private';
  /** The operator wrote an imprint. */
  hasImprint: boolean;
  /** Anyone may reach the register form (open, or by e-mail domain) — not invitation-only or closed. */
  registrationOpen: boolean;
}

/**
 * The public pages that exist on this server: the sales page for enterprise customers only on the
 * marketing site, the imprint only where the operator wrote one, the register page only where
 * a visitor can register. The sitemap, the links and the pages themselves follow it.
 */
export function existingPublicPages(site: SiteShape): PublicPage[] {
  return (Object.keys(publicPages) as PublicPage[]).filter((page) => {
    if (page === 'enterprise') return site.homePage === 'marketing';
    if (page === 'imprint') return site.hasImprint;
    if (page === 'register') return site.registrationOpen;
    return true;
  });
}

/** A path in a locale: English has no prefix (/faq), the others do (/de/faq, /de). */
export function localizedPath(locale: Locale, path: string): string {
  if (locale === defaultLocale) return path;
  return path === '/' ? `/${locale}` : `/${locale}${path}`;
}

/** The same page in another locale: "/de/faq" → "/faq" (English) or "/fr/faq". */
export function switchLocalePath(pathname: string, next: Locale): string {
  const [, first = '', ...rest] = pathname.split('/');
  return localizedPath(next, isLocale(first) ? `/${rest.join('/')}` : pathname);
}

/** hreflang → path for every locale, plus x-default (English, the fallback language). */
export function languageAlternates(path: string): Record<string, string> {
  const entries: [string, string][] = locales.map((locale) => [htmlLang(locale), localizedPath(locale, path)]);
  return Object.fromEntries([...entries, ['x-default', localizedPath(defaultLocale, path)]]);
}

/**
 * What search engines must not crawl (robots.txt): the logged-in areas of SPEC point 2, meetings
 * (a /now/ link is an invitation, not a page) and account links, in every locale…
 */
export const privatePages = [
  '/now/',
  '/calendar',
  '/schedule',
  '/admin',
  '/support',
  '/open-ticket',
  '/view-ticket/',
  '/attendees',
  '/settings',
  '/resetpassword/',
  '/activate-account',
  '/verify-account',
  '/confirm-email',
] as const;

/** …and the calls of SPEC point 7, which have no locale. */
export const privateCalls = ['/api/', '/2fa/', '/billing/', '/stripe/', '/invitation', '/vip', '/logout', '/dev/'] as const;

/** The public pages a service worker may keep for offline use (proxy.ts marks their answers). */
export const offlinePages = ['/', '/enterprise', '/faq', '/download', '/terms-of-service', '/security'] as const;

/** The response header that marks a page the service worker may cache (public/sw.js). */
export const OFFLINE_HEADER = 'X-Enclave-Shell';

/** Where proxy.ts sends a visitor's `/` (the marketing home), and the header that proves it did. */
export const VISITOR_HOME_PATH = '/welcome';
export const VISITOR_HOME_HEADER = 'x-enclave-visitor-home';
