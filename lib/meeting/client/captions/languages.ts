// The languages a speaker can say they speak (docs/meetings.md "Captions"): the interface's twelve
// (lib/i18n/locales.ts), each as the BCP 47 tag a recogniser is asked for.
import type { Locale } from '@/lib/i18n/locales';

export const SPEECH_LANGUAGES: Record<Locale, string> = {
  en: 'en-US',
  de: 'de-DE',
  fr: 'fr-FR',
  sk: 'sk-SK',
  pl: 'pl-PL',
  el: 'el-GR',
  es: 'es-ES',
  nl: 'nl-NL',
  hi: 'hi-IN',
  'zh-cn': 'zh-CN',
  'zh-tw': 'zh-TW',
  pt: 'pt-PT',
};

/** The interface's language as a speech tag (English for one it does not know). */
export const speechLanguage = (locale: string): string => SPEECH_LANGUAGES[locale as Locale] ?? 'en-US';
