import { ApiError } from '@/lib/errors';

// One rule for every text a request carries (issue 32, item 1): PostgreSQL refuses NUL in text
// (a 500 from deep inside a handler), and a lone UTF-16 surrogate cannot be written as UTF-8 (it
// would be stored as U+FFFD, silently changed). Both are refused before any handler runs.

/** Whether a string can be stored as it is: no NUL, no lone surrogate. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/** The path of the first unstorable string in a parsed JSON value (keys too), or null. */
function firstUnstorable(value: unknown, path: string[]): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = firstUnstorable(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return path;
      const found = firstUnstorable(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Refuses a value holding unstorable text: incorrect_data on the field where it was found. */
export function assertStorableText(value: unknown): void {
  const path = firstUnstorable(value, []);
  if (path) throw new ApiError('incorrect_data', { field: path.join('.') || undefined });
}
