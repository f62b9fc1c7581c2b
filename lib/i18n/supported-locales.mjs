// The interface languages and how a request's Accept-Language picks one: shared by the app
// (lib/i18n/locales.ts re-exports them) and the server layer (server/refusals.mjs), which runs
// before Next.js compiles anything. Plain JavaScript for that; JSDoc gives TypeScript the types.

// The twelve interface languages of SPEC point 1. English is the fallback and has no path prefix.
export const locales = /** @type {const} */ (['en', 'de', 'fr', 'sk', 'pl', 'el', 'es', 'nl', 'hi', 'zh-cn', 'zh-tw', 'pt']);
/** @typedef {(typeof locales)[number]} Locale */

/** @type {Locale} */
export const defaultLocale = 'en';

/**
 * @param {unknown} value
 * @returns {value is Locale}
 */
export function isLocale(value) {
  return typeof value === 'string' && /** @type {readonly string[]} */ (locales).includes(value);
}

/**
 * The best supported locale for an Accept-Language header, or English.
 * @param {string | null | undefined} header
 * @returns {Locale}
 */
export function localeFromAcceptLanguage(header) {
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
