// The headers every answer carries, static files included: next.config.mjs gives them to Next.js's
// answers, and scripts/server.mjs's calendar fast path (issue 17) to the 304s it answers itself.
// Plain JavaScript, because next.config.mjs imports it.

/** @param {boolean} production  HSTS only in production (a local http:// trial would be pinned otherwise). */
export function baseHeaders(production) {
  return [
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    { key: 'X-Frame-Options', value: 'DENY' },
    { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
    {
      key: 'Permissions-Policy',
      value: 'camera=(self), microphone=(self), display-capture=(self), geolocation=(), payment=(self)',
    },
    ...(production ? [{ key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' }] : []),
  ];
}
