// Which Content-Security-Policy a page gets (proxy.ts, csp.ts), as a kind: a document keeps the
// policy it was loaded with, so a move between pages of two kinds must load a whole document
// (issue 48: "Start meeting now", a client-side link, ran the meeting under the dashboard's policy,
// where the noise filter's WebAssembly could not compile and the SFU could not be reached).
// Plain data and functions: the proxy, the browser's link guard and the routers share them.
import { isLocale } from '@/lib/i18n/locales';
import { MEETING_PAGE } from '@/lib/meeting-address';

/** The one page that holds Stripe's card form (the billing screen) lets Stripe in; no other does. */
export const STRIPE_PAGES = ['/settings'] as const;

/** The meeting page, /now/{id}: it compiles WebAssembly and may reach the SFU (csp.ts). */
export const isWasmPage = (path: string) => MEETING_PAGE.test(path);

export type PagePolicyKind = 'meeting' | 'billing' | 'standard';

/** "/de/now/abc" → "/now/abc"; a path without a locale prefix stays as it is. */
export function withoutLocale(pathname: string): string {
  const [, first, ...rest] = pathname.split('/');
  return first && isLocale(first) ? `/${rest.join('/')}` : pathname;
}

/** The kind of policy of a page, from its path with or without locale prefix. */
export function pagePolicyKind(pathname: string): PagePolicyKind {
  const path = withoutLocale(pathname);
  if (isWasmPage(path)) return 'meeting';
  if ((STRIPE_PAGES as readonly string[]).includes(path)) return 'billing';
  return 'standard';
}

/** Whether going from one page to the other needs a whole document load: their policies differ. */
export function crossesPolicy(fromPathname: string, toPathname: string): boolean {
  return pagePolicyKind(fromPathname) !== pagePolicyKind(toPathname);
}
