// The twelve interface languages of SPEC point 1. English is the fallback and has no path prefix.
export const locales = ['en', 'de', 'fr', 'sk', 'pl', 'el', 'es', 'nl', 'hi', 'zh-cn', 'zh-tw', 'pt'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/**
 * Each language named in itself. No flags (issue 33, point 10): emoji flags are drawn as two
 * letters or empty boxes on Windows and on Linux without an emoji font, and a language is not a
 * country (Português, Español, English, 中文 are spoken under many flags).
 */
export const localeLabels: Record<Locale, { name: string }> = {
  en: { name: 'English' },
  de: { name: 'Deutsch' },
  fr: { name: 'Français' },
  sk: { name: 'Slovenčina' },
  pl: { name: 'Polski' },
  el: { name: 'Ελληνικά' },
  es: { name: 'Español' },
  nl: { name: 'Nederlands' },
  hi: { name: 'हिन्दी' },
  'zh-cn': { name: '简体中文' },
  'zh-tw': { name: '繁體中文' },
  pt: { name: 'Português' },
};

/** What the language selectors show for a language: its own name in its own script, and its code. */
export function localeOptionLabel(locale: Locale): string {
  return `${localeLabels[locale].name} (${locale})`;
}

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
