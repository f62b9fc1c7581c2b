import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { configuration } from '@/lib/db/schema';

export interface PublicConfiguration {
  product_price: number;
  currency: string[];
  max_event_attendees: number;
  enable2fa: boolean;
}

/** The product-wide settings of SPEC point 3 ("Configuration"), as the client reads them. */
export async function getPublicConfiguration(): Promise<PublicConfiguration> {
  const db = await getDb();
  const [row] = await db.select().from(configuration).where(eq(configuration.id, 1)).limit(1);
  const priceCents = row?.productPriceCents ?? 3495;
  return {
    product_price: priceCents / 100,
    currency: ['EUR', 'USD'],
    max_event_attendees: row?.maxEventAttendees ?? 100,
    enable2fa: row?.enable2fa ?? true,
  };
}

export const downloadPlatforms = ['outlook', 'android', 'ios', 'windows', 'mac', 'linux'] as const;
export type DownloadPlatform = (typeof downloadPlatforms)[number];

/** The minimum each platform needs (SPEC points 1 and 9). */
const minimumSystem: Record<DownloadPlatform, string> = {
  outlook: 'Outlook 2016',
  android: 'Android 8',
  ios: 'iOS 12',
  windows: '2-core CPU, 8 GB RAM',
  mac: '2-core CPU, 8 GB RAM',
  linux: '2-core CPU, 8 GB RAM',
};

export interface Download {
  platform: DownloadPlatform;
  /** Where the installer is; null while the operator has not published one. */
  url: string | null;
  minimum: string;
}

/** Only web addresses become links: a stored `javascript:` or relative value is no download. */
function downloadUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The software hub's list. Each URL comes from the configuration row, else from the environment
 * (DOWNLOAD_URL_ANDROID, …), so a white-label install publishes its own apps; a platform with
 * neither is not offered on this server.
 */
export async function getDownloads(): Promise<Download[]> {
  const db = await getDb();
  const [row] = await db.select({ downloads: configuration.downloads }).from(configuration).limit(1);
  const urls = row?.downloads ?? {};
  return downloadPlatforms.map((platform) => ({
    platform,
    url: downloadUrl(urls[platform]) ?? downloadUrl(process.env[`DOWNLOAD_URL_${platform.toUpperCase()}`]),
    minimum: minimumSystem[platform],
  }));
}
