import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';
import { describeError, log } from '@/lib/log';
import { releaseAnswer } from '@/lib/release/signature';

export const dynamic = 'force-dynamic';

// GET /.well-known/enclave/release.json – the published manifest's hash, and the publisher's key
// and signature when this server signs (lib/release/signature.ts). The service worker reads it on
// navigations; anyone may read it.
export const GET = apiRoute({ auth: 'none', crossSiteGet: true }, async () => {
  const answer = await releaseAnswer().catch((error: unknown) => {
    log.warn('release answer unavailable', describeError(error));
    return null;
  });
  if (answer === null) throw new ApiError('service_unavailable');
  return Response.json(answer, { headers: { 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' } });
});
