import { ApiError } from '@/lib/errors';
import { isStorableText } from '@/lib/storable-text';

// One rule for every text a request carries (issue 32, item 1; the rule: lib/storable-text.ts):
// refused before any handler runs, naming the field.

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
