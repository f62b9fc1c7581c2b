import 'server-only';
import { eq } from 'drizzle-orm';
import { billingOn } from '@/lib/configuration/billing-mode';
import { config } from '@/lib/environment';
import { getDb } from '@/lib/db/client';
import { configuration } from '@/lib/db/schema';
import { DEFAULT_PRIVATE_LIMITS, type PrivateLimits } from './limits';

/**
 * The limits the admin set for a server without billing, or null with billing on (SPEC's plans
 * apply). ON_PREMISE=true has no room limit at all (SPEC point 4: "on-premise installs also skip
 * room limits"); its participants per meeting still come from the configuration. Read before any transaction that locks the owner: on the embedded PGlite a query
 * outside an open transaction waits for it.
 */
export async function privateLimits(): Promise<PrivateLimits | null> {
  if (billingOn()) return null;
  const db = await getDb();
  const [row] = await db
    .select({ roomsPerUser: configuration.roomsPerUser, participantsPerMeeting: configuration.participantsPerMeeting })
    .from(configuration)
    .where(eq(configuration.id, 1))
    .limit(1);
  const limits = row ?? DEFAULT_PRIVATE_LIMITS;
  return config.onPremise ? { ...limits, roomsPerUser: Number.POSITIVE_INFINITY } : limits;
}
