import { config } from '@/lib/environment';
import { socialImage } from '@/lib/brand/icon';
import en from '@/messages/en.json';

export const dynamic = 'force-static';

// GET /og-image.png – the social card of every public page (lib/seo/metadata.ts), made at build
// time. One card for all languages: its one line is the English tagline.
export function GET() {
  return socialImage(config.brandName, en.Public.tagline);
}
