/** The defined entries of a partial update, or null when there are none (drizzle refuses an empty SET). */
export function changesOf<T extends Record<string, unknown>>(values: T): Partial<T> | null {
  const defined = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
  return Object.keys(defined).length ? defined : null;
}
