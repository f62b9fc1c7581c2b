import 'server-only';
import { eq } from 'drizzle-orm';
import { config } from '@/lib/environment';
import { getDb } from '@/lib/db/client';
import { configuration } from '@/lib/db/schema';

// Read on every page frame, title and mail: kept for a few seconds per process, and replaced at
// once when this process changes it (other instances follow within the same few seconds).
const TTL_MS = 5_000;
let cached: { name: string; until: number } | undefined;
let refreshing: Promise<string> | undefined;

async function load(): Promise<string> {
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

/** The product name: the one set in the admin area (issue 18), else BRAND_NAME. */
export async function getBrandName(): Promise<string> {
  if (cached && cached.until > Date.now()) return cached.name;
  refreshing ??= load().finally(() => (refreshing = undefined));
  return refreshing;
}

/**
 * The same name without waiting for the database, for code that may run inside a transaction
 * (mail is rendered there): on the embedded PGlite a query outside the open transaction would
 * wait for it forever. A stale value is refreshed in the background; before any page or
 * change has read it in this process, BRAND_NAME answers (and nothing touches the database).
 */
export function currentBrandName(): string {
  if (cached && cached.until <= Date.now()) void getBrandName();
  return cached?.name ?? config.brandName;
}

/** After this process changed the name: every later read sees it at once. */
export function rememberBrandName(name: string | null): void {
  cached = { name: name?.trim() || config.brandName, until: Date.now() + TTL_MS };
}
