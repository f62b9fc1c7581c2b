import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { config } from '@/lib/environment';
import { getDb } from '@/lib/db/client';
import { calendarFeeds, events, type User } from '@/lib/db/schema';
import { buildIcs } from './ics/build-ics';
import { eventComponents } from './mail';
import { loadParticipants } from './participants';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const feedUrl = (token: string) => `${config.appUrl}/api/calendar/feed/${token}`;

/**
 * POST /api/calendar/feed: a new private feed URL for calendar apps to subscribe to. Only the
 * token's hash is kept, so the URL is shown this once; a new one revokes the one before.
 */
export async function createFeed(user: User): Promise<{ url: string }> {
  const token = randomBytes(24).toString('base64url');
  const db = await getDb();
  await db
    .insert(calendarFeeds)
    .values({ userId: user.id, tokenHash: hash(token) })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash: hash(token), createdAt: new Date() } });
  return { url: feedUrl(token) };
}

/** DELETE /api/calendar/feed: the feed URL stops working. */
export async function revokeFeed(user: User): Promise<void> {
  const db = await getDb();
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, user.id));
}

/** GET /api/calendar/feed/{token}: the user's meetings as one .ics (METHOD:PUBLISH). */
export async function feedCalendar(token: string): Promise<string> {
  if (!/^[\w-]{32}$/.test(token)) throw new ApiError('invite_not_found');
  const db = await getDb();
  const [feed] = await db
    .select()
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, hash(token)));
  if (!feed) throw new ApiError('invite_not_found');
  const rows = await db
    .select()
    .from(events)
    .where(and(eq(events.ownerId, feed.userId), isNull(events.cancelledAt)));
  const components = await db.transaction(async (tx) => {
    const all = [];
    for (const event of rows) all.push(...(await eventComponents(tx, event, await loadParticipants(tx, event.id))));
    return all;
  });
  return buildIcs('PUBLISH', components, { name: config.brandName, productName: config.brandName });
}
