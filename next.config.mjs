import { fileURLToPath } from 'node:url';
import createNextIntlPlugin from 'next-intl/plugin';
import { baseHeaders as baseHeadersFor } from './lib/security/base-headers.mjs';
import { buildCommit } from './lib/security/build-manifest.mjs';

// Messages are compiled at build time (next-intl's `precompile`): the browser gets icu-minify's
// small formatter instead of intl-messageformat and its parser (about 9 KB gz on every page that
// formats text on the client). A list in messages/*.json arrives as an object keyed 0, 1, …
// (lib/i18n/message-list.ts reads both shapes).
const withNextIntl = createNextIntlPlugin({
  requestConfig: './lib/page/i18n-request.ts',
  experimental: { messages: { path: './messages', format: 'json', locales: 'infer', precompile: true } },
});
const root = fileURLToPath(new URL('.', import.meta.url));
const production = process.env.NODE_ENV === 'production';

// Headers every response carries, static files included (lib/security/base-headers.mjs). The
// Content-Security-Policy with its per-request nonce is set by proxy.ts, which sees pages and API calls.
const baseHeaders = baseHeadersFor(production);

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Under the server layer (server/server.mjs), it compresses, after it gave the pages' scripts their
  // integrity (server/integrity-html.mjs); under `next start`, Next.js does.
  compress: process.env.ENCLAVE_SERVER_LAYER !== '1',
  // Type checking belongs to `npm test` and CI (scripts/test.mjs), not to the build `npm start`
  // makes for a person waiting for their first page: it took a third of the build.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  // A build anyone can check (issue 47, docs/security.md "A web client anyone can verify"): every
  // script and stylesheet the HTML names carries its sha384 (scripts/build-integrity.mjs gives the
  // chunks loaded later theirs), and the build id is the commit, so that two builds of one commit
  // give the same bytes under .next/static. Outside git (a container build), ENCLAVE_COMMIT names it.
  experimental: { sri: { algorithm: 'sha384' } },
  // Integrity-Policy lets a script run only when fetched in CORS mode (same origin: no change to what is sent).
  crossOrigin: 'anonymous',
  generateBuildId: () => buildCommit(root),
  turbopack: { root },
  // PGlite loads its WebAssembly from its own package folder at run time.
  // prom-client: one copy in the process, whatever bundles import it (lib/metrics/registry.ts).
  serverExternalPackages: ['@electric-sql/pglite', '@node-rs/argon2', 'prom-client'],
  async headers() {
    return [
      { source: '/:path*', headers: baseHeaders },
      // The service worker is checked for updates on every visit, never taken from the HTTP cache.
      { source: '/sw.js', headers: [{ key: 'Cache-Control', value: 'no-cache' }] },
      {
        // Static assets are not seen by the proxy; give them a closed policy of their own. A
        // worker runs under its script's policy: the frame-encryption worker loads its chunks
        // from this origin and nothing else; the background worker also fetches its model and
        // compiles its WebAssembly, from this origin (lib/meeting/client/background/).
        source: '/_next/static/:path*',
        headers: [
          {
            key: 'Content-Security-Policy',
            value: "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; frame-ancestors 'none'",
          },
        ],
      },
    ];
  },
};

export default withNextIntl(nextConfig);
