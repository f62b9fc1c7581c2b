// The browser's guard for links between pages of different Content-Security-Policies (issue 48,
// lib/security/page-policy.ts). A document keeps the policy it was loaded with, but the app's
// links navigate inside the document (Next.js's Link): one into the meeting page ran the call under
// the dashboard's policy. This inline script, in every page (app/[locale]/layout.tsx), catches a
// click on any link (whatever component drew it) to a page of another kind before React sees it,
// so the browser follows the link itself: a whole document load, with the target's own policy.
// Routers are guarded in lib/navigation/router.ts; eslint.config.mjs keeps the app on those.
import { locales } from '@/lib/i18n/locales';
import { MEETING_PAGE } from '@/lib/meeting-address';
import { STRIPE_PAGES } from '@/lib/security/page-policy';

export const policyLinkGuard = `(function () {
  var locales = ${JSON.stringify(locales)};
  var wasm = new RegExp(${JSON.stringify(MEETING_PAGE.source)});
  var stripe = ${JSON.stringify(STRIPE_PAGES)};
  // lib/security/page-policy.ts pagePolicyKind, in ES5.
  function kind(pathname) {
    var parts = pathname.split('/');
    var path = locales.indexOf(parts[1]) !== -1 ? '/' + parts.slice(2).join('/') : pathname;
    if (wasm.test(path)) return 'meeting';
    if (stripe.indexOf(path) !== -1) return 'billing';
    return 'standard';
  }
  addEventListener('click', function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[href]') : null;
    if (!link || link.origin !== location.origin) return;
    // Not preventDefault: the browser's own navigation is what must happen.
    if (kind(link.pathname) !== kind(location.pathname)) event.stopPropagation();
  }, true);
})();`;
