import { config } from '@/lib/environment';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin the request was addressed to, as the browser saw it (proxies included). */
function requestOrigin(request: Request): string | null {
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  if (!host) return null;
  const proto = request.headers.get('x-forwarded-proto') ?? new URL(request.url).protocol.replace(':', '');
  return `${proto}://${host}`;
}

/**
 * State-changing requests must come from the app's own pages: the browser's Origin header must
 * name APP_URL or the host addressed. A missing or "null" Origin is refused too.
 */
export function isAllowedOrigin(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = request.headers.get('origin');
  if (!origin || origin === 'null') return false;
  return origin === new URL(config.appUrl).origin || origin === requestOrigin(request);
}

/**
 * Fetch metadata of a request another site started (its link, image, script or fetch): the
 * browser says `cross-site`, or `same-site` for a sibling host. Absent from non-browsers and old
 * browsers, `none` for an address typed in, `same-origin` from the app's own pages.
 */
export function isCrossSiteRequest(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}
