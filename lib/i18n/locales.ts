// The twelve interface languages of SPEC point 1. English is the fallback and has no path prefix.
export const locales = ['en', 'de', 'fr', 'sk', 'pl', 'el', 'es', 'nl', 'hi', 'zh-cn', 'zh-tw', 'pt'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/**
 * Each language named in itself, and the flag the language pickers show beside the name (SPEC
 * point 1: "a language selector with flag options"). The flags are SVG files in public/flags
 * (flag-icons, MIT), not emoji: emoji flags are drawn as two letters or empty boxes on Windows and
 * on Linux without an emoji font (issue 33, point 10). The flag is decoration; the name is the label.
 */
export const localeLabels: Record<Locale, { name: string; flag: string }> = {
  en: { name: 'English', flag: 'gb' },
  de: { name: 'Deutsch', flag: 'de' },
  fr: { name: 'Français', flag: 'fr' },
  sk: { name: 'Slovenčina', flag: 'sk' },
  pl: { name: 'Polski', flag: 'pl' },
  el: { name: 'Ελληνικά', flag: 'gr' },
  es: { name: 'Español', flag: 'es' },
  nl: { name: 'Nederlands', flag: 'nl' },
  hi: { name: 'हिन्दी', flag: 'in' },
  'zh-cn': { name: '简体中文', flag: 'cn' },
  'zh-tw': { name: '繁體中文', flag: 'tw' },
  pt: { name: 'Português', flag: 'pt' },
};

/** The flag image of a language's picker option, a 4:3 SVG served from public/flags. */
export function flagSrc(locale: Locale): string {
  return `/flags/${localeLabels[locale].flag}.svg`;
}

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
