import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import { copiesPerDatabase } from '@/lib/db/committed-copies';
import { calendarVersions, users } from '@/lib/db/schema';

/**
 * The version of a user's calendar: a string that changes whenever a row the calendar shows is
 * written — one of the user's events, their exceptions, or the user's rooms (name and colour
 * are shown) — by any code path, any app instance, or by hand in SQL. Null when the user is gone.
 *
 * Triggers keep it (drizzle/0008_calendar_versions.sql): every insert, update or delete of those
 * rows raises the user's counter in `calendar_versions` in the same transaction, so reading it is
 * one row by its key. (Until issue 17 it was a count and hash sum over every row of the user's,
 * ~0.6 ms of PostgreSQL's CPU per request: the bottleneck once the rest was cheap.) The row's
 * `xmin` goes with the counter, so a database restored to an older backup, where the counter
 * could repeat, does not repeat a tag. TRUNCATE fires no row trigger: truncating events by hand
 * leaves tags unchanged until the next write.
 *
 * Read it before the data it labels, so that a version never names older data than it was read
 * with (docs/calendar.md).
 */
export async function calendarVersion(db: Database, userId: string): Promise<string | null> {
  return versions(db).read(userId, [`calendar_versions:${userId}`, `users:${userId}`], async () => {
    const [row] = await versionQuery(db).execute({ userId });
    return row ? row.version : null;
  });
}

// On the embedded database, each user's version is kept in memory until their version row or
// user row changes (lib/db/committed-copies.ts): it was one of a revalidation's two queries there.
const versions = copiesPerDatabase<string | null>(10_000);

// Built once per database and prepared: the query builder cost more than the query.
const prepared = new WeakMap<Database, ReturnType<typeof prepare>>();

function versionQuery(db: Database) {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = prepare(db)));
  return query;
}

function prepare(db: Database) {
  const userId = sql.placeholder('userId');
  return db
    .select({
      version: sql<string>`coalesce((select ${calendarVersions.version} || '.' || ${calendarVersions}.xmin from ${calendarVersions} where ${calendarVersions.userId} = ${userId}), '0')`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .prepare('calendar_version');
}
