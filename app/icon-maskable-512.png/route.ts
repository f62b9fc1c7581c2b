import { brandIconPng } from '@/lib/brand/icon';

export const dynamic = 'force-static';

// GET /icon-maskable-512.png – the manifest's maskable icon (full bleed, mark in the safe zone)
export function GET() {
  return brandIconPng(512, { maskable: true });
}
