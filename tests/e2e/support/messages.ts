import { readFileSync } from 'node:fs';
import path from 'node:path';

type Messages = typeof import('../../../messages/en.json');

/** A locale's messages as the app ships them, so tests check real translations. */
export function messages(locale: string): Messages {
  return JSON.parse(readFileSync(path.join(process.cwd(), 'messages', `${locale}.json`), 'utf8'));
}

export const locales = ['en', 'de', 'fr', 'sk', 'pl', 'el', 'es', 'nl', 'hi', 'zh-cn', 'zh-tw', 'pt'] as const;

/** The path of a route in a locale: English unprefixed, others prefixed. */
export const localized = (locale: string, route: string) => (locale === 'en' ? route : `/${locale}${route === '/' ? '' : route}`);
