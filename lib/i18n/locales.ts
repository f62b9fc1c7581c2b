// The twelve interface languages of SPEC point 1. English is the fallback and has no path prefix.
export const locales = ['en', 'de', 'fr', 'sk', 'pl', 'el', 'es', 'nl', 'hi', 'zh-cn', 'zh-tw', 'pt'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/** Each language named in itself, with the flag the selector shows beside it. */
export const localeLabels: Record<Locale, { name: string; flag: string }> = {
  en: { name: 'English', flag: '🇬🇧' },
  de: { name: 'Deutsch', flag: '🇩🇪' },
  fr: { name: 'Français', flag: '🇫🇷' },
  sk: { name: 'Slovenčina', flag: '🇸🇰' },
  pl: { name: 'Polski', flag: '🇵🇱' },
  el: { name: 'Ελληνικά', flag: '🇬🇷' },
  es: { name: 'Español', flag: '🇪🇸' },
  nl: { name: 'Nederlands', flag: '🇳🇱' },
  hi: { name: 'हिन्दी', flag: '🇮🇳' },
  'zh-cn': { name: '简体中文', flag: '🇨🇳' },
  'zh-tw': { name: '繁體中文', flag: '🇹🇼' },
  pt: { name: 'Português', flag: '🇵🇹' },
};

/** The BCP 47 tag for `<html lang>` and Intl formatters ("zh-cn" → "zh-CN"). */
export function htmlLang(locale: Locale): string {
  const [language, region] = locale.split('-');
  return region ? `${language}-${region.toUpperCase()}` : locale;
}

/** The best supported locale for an Accept-Language header, or English. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale {
  if (!header) return defaultLocale;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (isLocale(tag)) return tag;
    // Traditional script (zh-Hant…) and the regions that write it read zh-tw; other Chinese zh-cn.
    if (tag.startsWith('zh')) return /^zh-(hant|hk|mo|tw)\b/.test(tag) ? 'zh-tw' : 'zh-cn';
    const base = tag.split('-')[0];
    if (isLocale(base)) return base;
  }
  return defaultLocale;
}
