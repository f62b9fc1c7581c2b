import { apiRoute } from '@/lib/api/handler';
import { completeSignIn } from '@/lib/auth/oidc/flow';

// GET /api/auth/oidc/{provider}/callback – the provider sends the browser back here: a top-level
// navigation from another site, so the Sec-Fetch-Site refusal cannot apply. The defence against a
// forged one is the state it must carry, equal to the one in this browser's sealed, HttpOnly
// cookie (lib/auth/oidc/flow-cookie.ts); without it nothing happens but a redirect to /login.
export const GET = apiRoute<RouteContext<'/api/auth/oidc/[provider]/callback'>, 'none'>(
  { auth: 'none', crossSiteGet: true },
  ({ params, request, locale, setSession }) => completeSignIn(params.provider, request, locale, setSession),
);
