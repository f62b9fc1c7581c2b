// Issue 35, item 4: what `/` shows a visitor. Pure rules, shared by the server, the admin form
// and the start-up check.

export const homePageModes = ['marketing', 'private'] as const;
export type HomePageMode = (typeof homePageModes)[number];

export function isHomePageMode(value: unknown): value is HomePageMode {
  return typeof value === 'string' && (homePageModes as readonly string[]).includes(value);
}

/**
 * The environment's default: HOME_PAGE when it names a mode, else what the billing mode implies
 * (the hosted service shows its sales site; a private server, the plain home).
 */
export function defaultHomePage(setting: string | undefined, billingOn: boolean): HomePageMode {
  const chosen = setting?.trim().toLowerCase();
  if (isHomePageMode(chosen)) return chosen;
  return billingOn ? 'marketing' : 'private';
}

/** A HOME_PAGE value that names no mode: the server refuses to start rather than guess. */
export function homePageSettingProblem(setting: string | undefined): string | null {
  const chosen = setting?.trim().toLowerCase();
  if (!chosen || isHomePageMode(chosen)) return null;
  return `Enclave will not start: HOME_PAGE=${setting} is not a setting. Write marketing (the sales site with plans) or private (a plain home: sign in, register, join a meeting), or leave it unset.`;
}
