// Part of `npm run bench:calendar`: gives the account SEED_EMAIL (made by scripts/seed.ts) 1,000
// recurring series — every repeat type, 4 zones, started up to a year ago, as the pure
// expansion benchmark has them — and, on one series in ten, a cancelled and a moved occurrence
// this month. Written with SQL (createEvent refuses starts in the past). No reminders are
// planned, so the server's start-up sweep does not overlap the measurement.
import { and, eq, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { closeDb, getDb } from '@/lib/db/client';
import { eventExceptions, events, rooms, users } from '@/lib/db/schema';
import { buildRRule } from '@/lib/recurrence/build-rule';
import { occurrenceStarts, seriesEnd } from '@/lib/recurrence/expand';
import type { RepeatType } from '@/lib/event-rules/repeat';
import { meetingLink } from '@/lib/rooms/view';

const SERIES = Number(process.env.BENCH_SERIES ?? 1000);
const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Europe/London'];
const types: RepeatType[] = ['daily', 'weekly', 'monthly', 'annually', 'weekdays'];

async function main() {
  const db = await getDb();
  const email = process.env.SEED_EMAIL ?? 'demo@enclave.local';
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!user) throw new Error(`no account ${email}: run scripts/seed.ts first`);
  const [room] = await db
    .select()
    .from(rooms)
    .where(and(eq(rooms.ownerId, user.id), eq(rooms.isDefault, true)));
  const monthStart = DateTime.now().startOf('month');
  const rows = Array.from({ length: SERIES }, (_, i) => {
    const timezone = zones[i % zones.length]!;
    const type = types[i % types.length]!;
    const start = DateTime.now()
      .setZone(timezone)
      .minus({ days: (i * 7919) % 365 })
      .set({ hour: 8 + (i % 10), minute: 0, second: 0, millisecond: 0 })
      .toJSDate();
    const rrule = buildRRule(type, start, timezone);
    return {
      ownerId: user.id,
      roomId: room?.id ?? null,
      link: room ? meetingLink(room.meetingId) : null,
      title: `Series ${i + 1}`,
      description: i % 3 === 0 ? 'Weekly sync: status, blockers, next steps.' : null,
      startsAt: start,
      durationMinutes: 30,
      timezone,
      repeatType: type,
      rrule,
      endsAt: seriesEnd({ start, timezone, durationMinutes: 30, rrule }),
    };
  });
  let exceptions = 0;
  for (let i = 0; i < rows.length; i += 200) {
    const inserted = await db
      .insert(events)
      .values(rows.slice(i, i + 200))
      .returning();
    for (const [j, event] of inserted.entries()) {
      if ((i + j) % 10 !== 0) continue;
      const series = { start: event.startsAt, timezone: event.timezone, durationMinutes: event.durationMinutes, rrule: event.rrule };
      const [first, second] = occurrenceStarts(series, monthStart.toJSDate(), monthStart.plus({ months: 1 }).toJSDate());
      const values = [
        ...(first ? [{ eventId: event.id, originalStart: first, cancelled: true }] : []),
        ...(second ? [{ eventId: event.id, originalStart: second, startsAt: new Date(second.getTime() + 3_600_000), title: 'Moved' }] : []),
      ];
      if (values.length) await db.insert(eventExceptions).values(values);
      exceptions += values.length;
    }
  }
  console.log(JSON.stringify({ userId: user.id, series: rows.length, exceptions }));
  await closeDb();
}

main().catch(async (error) => {
  console.error(error);
  await closeDb();
  process.exit(1);
});
