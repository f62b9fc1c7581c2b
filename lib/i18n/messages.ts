import en from '@/messages/en.json';
import { defaultLocale, type Locale } from './locales';

export type Messages = typeof en;

// Translations may lag behind English for a while; withFallback fills the gaps.
const loaders: Record<Locale, () => Promise<unknown>> = {
  en: async () => en,
  de: () => import('@/messages/de.json').then((m) => m.default),
  fr: () => import('@/messages/fr.json').then((m) => m.default),
  sk: () => import('@/messages/sk.json').then((m) => m.default),
  pl: () => import('@/messages/pl.json').then((m) => m.default),
  el: () => import('@/messages/el.json').then((m) => m.default),
  es: () => import('@/messages/es.json').then((m) => m.default),
  nl: () => import('@/messages/nl.json').then((m) => m.default),
  hi: () => import('@/messages/hi.json').then((m) => m.default),
  'zh-cn': () => import('@/messages/zh-cn.json').then((m) => m.default),
  'zh-tw': () => import('@/messages/zh-tw.json').then((m) => m.default),
  pt: () => import('@/messages/pt.json').then((m) => m.default),
};

type Tree = { [key: string]: string | string[] | Tree };

const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Fills the keys a translation lacks with English, so a missing key never shows its id. A list
 * (a page's paragraphs) is taken whole from the translation: merging it would make it an object.
 */
function withFallback(messages: Tree, fallback: Tree): Tree {
  const merged: Tree = { ...fallback };
  for (const [key, value] of Object.entries(messages)) {
    const base = fallback[key];
    merged[key] = isTree(value) && isTree(base) ? withFallback(value, base) : value;
  }
  return merged;
}

export async function loadMessages(locale: Locale): Promise<Messages> {
  if (locale === defaultLocale) return en;
  const messages = await loaders[locale]();
  return withFallback(messages as unknown as Tree, en as unknown as Tree) as unknown as Messages;
}
