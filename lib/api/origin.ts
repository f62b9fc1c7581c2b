import { config } from '@/lib/environment';
import { FORWARDED_HOST_HEADER, FORWARDED_PROTO_HEADER, isTrustedPeer } from '@/lib/security/client-address';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin a trusted reverse proxy says the browser addressed (X-Forwarded-Proto/-Host). A
 * client's own Host or X-Forwarded-Host is never believed (issue 32, item 6): it would let any
 * page that names itself in both pass the check.
 */
function forwardedOrigin(request: Request): string | null {
  if (!isTrustedPeer(request.headers)) return null;
  const host = request.headers.get(FORWARDED_HOST_HEADER)?.split(',')[0]?.trim();
  const proto = request.headers.get(FORWARDED_PROTO_HEADER)?.split(',')[0]?.trim();
  return host && (proto === 'https' || proto === 'http') ? `${proto}://${host}` : null;
}

/** The local trial answers on every loopback name of its port (localhost, 127.0.0.1, [::1]). */
function isLoopbackAlias(origin: string, appOrigin: URL): boolean {
  if (!LOOPBACK_HOSTS.has(appOrigin.hostname)) return false;
  try {
    const url = new URL(origin);
    return url.protocol === appOrigin.protocol && url.port === appOrigin.port && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * State-changing requests must come from the app's own pages: the browser's Origin header must
 * name APP_URL (or what a trusted proxy forwarded). A missing or "null" Origin is refused too.
 */
export function isAllowedOrigin(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = request.headers.get('origin');
  if (!origin || origin === 'null') return false;
  const appOrigin = new URL(config.appUrl);
  return origin === appOrigin.origin || isLoopbackAlias(origin, appOrigin) || origin === forwardedOrigin(request);
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
