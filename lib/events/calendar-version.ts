import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db/client';
import { eventExceptions, events, rooms, users } from '@/lib/db/schema';

/**
 * The version of a user's calendar: a string that changes whenever a row the calendar shows is
 * written — one of the user's events, their exceptions, or the user's rooms (name and colour
 * are shown) — by any code path, any app instance, or by hand in SQL.
 *
 * It is read from the rows themselves, without a schema change: per table, the number of the
 * user's rows and the sum of a 64-bit hash of each row's id and `xmin`. PostgreSQL gives every
 * new row version the id of the transaction that wrote it (`xmin`), so an insert, an update of
 * any column or a delete changes the count or the sum; locking a row (SELECT … FOR UPDATE) does
 * not. A dump and restore or a VACUUM FULL may change xmin too: that only costs a recomputation.
 *
 * One query, one snapshot, over the owner indexes: ~1,000 series and their exceptions in
 * about a millisecond (bench/RESULTS.md). Read it before the data it labels, so that a version
 * never names older data than it was read with (docs/calendar.md, "Caching").
 */
export async function calendarVersion(db: Database, userId: string): Promise<string | null> {
  let query = prepared.get(db);
  if (!query) {
    query = prepare(db);
    prepared.set(db, query);
  }
  const [row] = await query.execute({ userId });
  return row ? `${row.events}/${row.exceptions}/${row.rooms}` : null;
}

// Built once per database and prepared: the query builder cost more than the query (~0.4 ms).
const prepared = new WeakMap<Database, ReturnType<typeof prepare>>();

function prepare(db: Database) {
  const userId = sql.placeholder('userId');
  return db
    .select({
      events: sql<string>`(select count(*) || '.' || coalesce(sum(hashtextextended(e.id::text || e.xmin::text, 0)), 0) from ${events} e where e.owner_id = ${userId})`,
      exceptions: sql<string>`(select count(*) || '.' || coalesce(sum(hashtextextended(x.id::text || x.xmin::text, 0)), 0) from ${eventExceptions} x join ${events} e on e.id = x.event_id where e.owner_id = ${userId})`,
      rooms: sql<string>`(select count(*) || '.' || coalesce(sum(hashtextextended(r.id::text || r.xmin::text, 0)), 0) from ${rooms} r where r.owner_id = ${userId})`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .prepare('calendar_version');
}
