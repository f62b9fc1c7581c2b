// Content-Security-Policy values. Pages get a per-request nonce; API answers a closed policy.

export function pagePolicy(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    // React sets style attributes; inline styles cannot run code, so they are allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const apiPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** The service worker's own policy: it fetches pages and assets of this origin, and nothing else. */
export const serviceWorkerPolicy = "default-src 'none'; connect-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'";
