import { isLocale, localeFromAcceptLanguage, type Locale } from '@/lib/i18n/locales';
import { LOCALE_COOKIE } from '@/lib/i18n/routing';

/** The language to answer in: the user's saved one, else the guest's cookie, else the browser's. */
export function requestLocale(request: { headers: Headers; cookies: { get(name: string): { value: string } | undefined } }, userLang?: string | null): Locale {
  if (isLocale(userLang)) return userLang;
  const cookie = request.cookies.get(LOCALE_COOKIE)?.value;
  if (isLocale(cookie)) return cookie;
  return localeFromAcceptLanguage(request.headers.get('accept-language'));
}
