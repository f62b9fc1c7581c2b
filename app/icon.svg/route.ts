import { brandIconSvg } from '@/lib/brand/icon';

export const dynamic = 'force-static';

// GET /icon.svg – the favicon for browsers that take SVG
export function GET() {
  return new Response(brandIconSvg(), { headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' } });
}
