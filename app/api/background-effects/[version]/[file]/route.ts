import { apiRoute } from '@/lib/api/handler';
import { backgroundAsset } from '@/lib/meeting/background-assets';

export const dynamic = 'force-dynamic';

// GET /api/background-effects/{version}/{file} – the background effect's segmentation runtime and
// model (lib/meeting/client/background/assets.ts). The same for everyone, guests included, and
// never changed under a version: cached for good.
export const GET = apiRoute<RouteContext<'/api/background-effects/[version]/[file]'>, 'none'>({ auth: 'none' }, async ({ params }) => {
  const { body, type } = await backgroundAsset(params.version, params.file);
  return new Response(body as BodyInit, {
    headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' },
  });
});
