export const themes = ['green', 'blue'] as const;
export type Theme = (typeof themes)[number];
export const THEME_COOKIE = 'theme';

export function isTheme(value: unknown): value is Theme {
  return value === 'green' || value === 'blue';
}
