/** Case- and accent-insensitive form of a text, for the search boxes of the lists. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** True when every word of `query` occurs in one of `fields` (an empty query matches all). */
export function matchesSearch(query: string, ...fields: (string | null | undefined)[]): boolean {
  const haystack = fold(fields.filter(Boolean).join(' '));
  return fold(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
