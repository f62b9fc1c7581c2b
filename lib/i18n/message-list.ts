/**
 * Lists in messages/*.json (a page's paragraphs, a plan's features). The build compiles every
 * message (next.config.mjs, next-intl's `precompile`), and a compiled list is an object keyed
 * 0, 1, …; Jest and the scripts read the JSON as it is, where it is an array. Each item is
 * formatted like any other message, so `{brand}` and the like are filled in.
 */
type Translate = ((key: string, values?: Record<string, string>) => string) & { raw(key: string): unknown };

export function messageList(translate: unknown, key: string, values?: Record<string, string>): string[] {
  const t = translate as Translate;
  const list = t.raw(key);
  const count = Array.isArray(list) ? list.length : list && typeof list === 'object' ? Object.keys(list).length : 0;
  return Array.from({ length: count }, (_, index) => t(`${key}.${index}`, values));
}
