import { apiRoute } from '@/lib/api/handler';
import { beginSignIn } from '@/lib/auth/oidc/flow';

// GET /api/auth/oidc/{provider}/start – "Sign in with …": to the provider. The login page's own
// link (same-origin); another site's request is refused like any GET, it has no reason to start one.
export const GET = apiRoute<RouteContext<'/api/auth/oidc/[provider]/start'>, 'none'>({ auth: 'none' }, ({ params, request }) =>
  beginSignIn(params.provider, request),
);
