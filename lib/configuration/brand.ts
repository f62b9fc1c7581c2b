import 'server-only';
import { eq } from 'drizzle-orm';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { configuration } from '@/lib/db/schema';

// Read on every page frame, title and mail: kept for a few seconds per process, and forgotten
// at once when this process changes it (other instances follow within the same few seconds).
const TTL_MS = 5_000;
let cached: { name: string; until: number } | undefined;

/** The product name: the one set in the admin area (issue 18), else BRAND_NAME. */
export async function getBrandName(): Promise<string> {
  if (cached && cached.until > Date.now()) return cached.name;
  let name = config.brandName;
  try {
    const db = await getDb();
    const [row] = await db.select({ brandName: configuration.brandName }).from(configuration).where(eq(configuration.id, 1)).limit(1);
    name = row?.brandName?.trim() || config.brandName;
  } catch {
    // No database yet (a build, say): the environment's name.
  }
  cached = { name, until: Date.now() + TTL_MS };
  return name;
}

export function forgetBrandName(): void {
  cached = undefined;
}
