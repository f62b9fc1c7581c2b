// The twelve interface languages of SPEC point 1 and the Accept-Language negotiation live in
// supported-locales.mjs, which the server layer imports too (one implementation for both).
import { locales } from './supported-locales.mjs';

export { defaultLocale, isLocale, localeFromAcceptLanguage, locales } from './supported-locales.mjs';
export type Locale = (typeof locales)[number];

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
