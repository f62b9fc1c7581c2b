import { brandIconPng } from '@/lib/brand/icon';

export const dynamic = 'force-static';

// GET /apple-touch-icon.png – the home-screen icon of iOS
export function GET() {
  return brandIconPng(180, { maskable: true });
}
