// The headers every answer carries, static files included: next.config.mjs gives them to Next.js's
// answers, the fast paths (lib/api/fast-answer.ts) to theirs, and the server layer (server/) to
// the few answers it writes itself. Plain JavaScript, because next.config.mjs and server/ import it.

/** What every answer says to the browser, whoever writes it. */
export const everyAnswerHeaders = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
});

/** The policy of an answer that is not a page: nothing loads, nothing frames it (proxy.ts's apiPolicy). */
export const closedPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** The headers of an answer the server layer writes itself (414, 400, a last-resort 500): closed, never stored. */
export const closedAnswerHeaders = Object.freeze({
  'Content-Security-Policy': closedPolicy,
  ...everyAnswerHeaders,
  'Cache-Control': 'no-store',
});

/** @param {boolean} production  HSTS only in production (a local http:// trial would be pinned otherwise). */
export function baseHeaders(production) {
  return [
    ...Object.entries(everyAnswerHeaders).map(([key, value]) => ({ key, value })),
    { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
    {
      key: 'Permissions-Policy',
      value: 'camera=(self), microphone=(self), display-capture=(self), geolocation=(), payment=(self)',
    },
    ...(production ? [{ key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' }] : []),
  ];
}
