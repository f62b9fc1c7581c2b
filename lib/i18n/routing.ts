import { defineRouting } from 'next-intl/routing';
import { defaultLocale, locales } from './locales';

export const LOCALE_COOKIE = 'NEXT_LOCALE';

// English paths carry no prefix (/login); every other language does (/de/login).
export const routing = defineRouting({
  locales,
  defaultLocale,
  localePrefix: 'as-needed',
  localeCookie: { name: LOCALE_COOKIE, maxAge: 60 * 60 * 24 * 365, sameSite: 'lax' },
  // No hreflang Link header: next-intl builds it from the request's own Host, so a client chose
  // the addresses, and a long path came back twelve times (issue 32, items 6 and 7). The public
  // pages carry their alternates on APP_URL in their <head> (lib/seo).
  alternateLinks: false,
});
