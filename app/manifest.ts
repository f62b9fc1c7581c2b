import type { MetadataRoute } from 'next';
import { BRAND_COLOUR } from '@/lib/brand/icon';
import { config } from '@/lib/environment';
import en from '@/messages/en.json';

export const dynamic = 'force-dynamic';

// GET /manifest.webmanifest – what makes Enclave installable (the /download page's "install").
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: config.brandName,
    short_name: config.brandName,
    description: en.Public.tagline,
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: BRAND_COLOUR,
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
