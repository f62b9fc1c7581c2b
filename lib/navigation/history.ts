/** SPEC point 2: every route change is recorded; the last 10 entries are kept. */
export const ROUTE_HISTORY_LIMIT = 10;
export const ROUTE_HISTORY_KEY = 'enclave.routeHistory';

export function pushRoute(history: readonly string[], path: string, limit = ROUTE_HISTORY_LIMIT): string[] {
  if (history[history.length - 1] === path) return [...history];
  return [...history, path].slice(-limit);
}

/** Reads the history kept in sessionStorage, tolerating anything that is not a list of strings. */
export function parseHistory(stored: string | null): string[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}
