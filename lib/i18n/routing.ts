import { defineRouting } from 'next-intl/routing';
import { defaultLocale, locales } from './locales';

export const LOCALE_COOKIE = 'NEXT_LOCALE';

// English paths carry no prefix (/login); every other language does (/de/login).
export const routing = defineRouting({
  locales,
  defaultLocale,
  localePrefix: 'as-needed',
  localeCookie: { name: LOCALE_COOKIE, maxAge: 60 * 60 * 24 * 365, sameSite: 'lax' },
});
