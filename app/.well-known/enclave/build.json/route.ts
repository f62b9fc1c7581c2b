import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';
import { describeError, log } from '@/lib/log';
import { publishedManifest } from '@/lib/release/signature';

export const dynamic = 'force-dynamic';

// GET /.well-known/enclave/build.json – the build's manifest (lib/release/manifest.ts): anyone may
// read it, from anywhere, and compare it with a build of the same commit (`npm run verify`).
export const GET = apiRoute({ auth: 'none', crossSiteGet: true }, async () => {
  const manifest = await publishedManifest().catch((error: unknown) => {
    log.warn('build manifest unavailable', describeError(error));
    return null;
  });
  // A server without a build of its own (the tests before the build, `next dev`) has nothing to publish.
  if (manifest === null) throw new ApiError('service_unavailable');
  return new Response(manifest, {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': '*' },
  });
});
