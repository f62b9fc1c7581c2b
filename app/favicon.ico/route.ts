import { brandIconPng, icoFromPng } from '@/lib/brand/icon';

export const dynamic = 'force-static';

// GET /favicon.ico – the 32-pixel icon, for browsers and tools that ask for it by this name
export async function GET() {
  const png = Buffer.from(await brandIconPng(32).arrayBuffer());
  return new Response(new Uint8Array(icoFromPng(png, 32)), { headers: { 'Content-Type': 'image/x-icon', 'Cache-Control': 'public, max-age=86400' } });
}
