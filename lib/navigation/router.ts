// The app's routers (issue 48): a push or replace to a page whose Content-Security-Policy differs
// from this document's (lib/security/page-policy.ts) loads a whole document, so that the page runs
// under its own policy; anything else stays a client-side navigation. Links are guarded by
// lib/navigation/policy-links.ts. eslint.config.mjs forbids the unguarded routers elsewhere.
import { useMemo } from 'react';
import { useRouter as useNextRouter } from 'next/navigation';
import { useLocale } from 'next-intl';
import { getPathname, useRouter as useIntlRouter } from '@/lib/i18n/links';
import { crossesPolicy } from '@/lib/security/page-policy';

/** Loads `href` as a whole document when its page's policy differs from this one's; says whether it did. */
export function loadedAsDocument(href: string, replace = false): boolean {
  const target = new URL(href, window.location.href);
  if (target.origin !== window.location.origin || !crossesPolicy(window.location.pathname, target.pathname)) return false;
  if (replace) window.location.replace(target.href);
  else window.location.assign(target.href);
  return true;
}

type IntlRouter = ReturnType<typeof useIntlRouter>;
type IntlHref = Parameters<IntlRouter['push']>[0];
type IntlOptions = Parameters<IntlRouter['push']>[1];

/** next-intl's router (paths without locale prefix, `{ locale }` options), guarded. */
export function useRouter(): IntlRouter {
  const router = useIntlRouter();
  const current = useLocale();
  return useMemo(() => {
    const resolve = (href: IntlHref, options: IntlOptions) =>
      getPathname({ href: href as Parameters<typeof getPathname>[0]['href'], locale: options?.locale ?? current });
    return {
      ...router,
      push: (href, options) => void (loadedAsDocument(resolve(href, options)) || router.push(href, options)),
      replace: (href, options) => void (loadedAsDocument(resolve(href, options), true) || router.replace(href, options)),
    };
  }, [router, current]);
}

type NextRouter = ReturnType<typeof useNextRouter>;

/** Next.js's router, for paths that already carry their locale prefix (a `next` parameter), guarded. */
export function usePathRouter(): NextRouter {
  const router = useNextRouter();
  return useMemo(
    () => ({
      ...router,
      push: (href, options) => void (loadedAsDocument(href) || router.push(href, options)),
      replace: (href, options) => void (loadedAsDocument(href, true) || router.replace(href, options)),
    }),
    [router],
  );
}
