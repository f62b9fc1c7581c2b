import { brandIconPng } from '@/lib/brand/icon';

export const dynamic = 'force-static';

// GET /icon-192.png – an icon of the web app manifest
export function GET() {
  return brandIconPng(192);
}
