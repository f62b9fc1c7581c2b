import 'server-only';
import { getTranslations } from 'next-intl/server';

type Values = Record<string, string | number>;

/**
 * Strings for a client island of a public page, formatted on the server: the island gets them as
 * props instead of next-intl's client runtime. A placeholder the island fills in itself is passed
 * through as written, e.g. `{ email: '{email}' }`.
 */
export async function islandLabels<K extends string>(namespace: 'ContactForm' | 'Rate', keys: readonly K[], values: Values = {}): Promise<Record<K, string>> {
  const t = (await getTranslations(namespace)) as unknown as (key: string, values?: Values) => string;
  return Object.fromEntries(keys.map((key) => [key, t(key, values)])) as Record<K, string>;
}
