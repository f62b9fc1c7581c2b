// Seeds the reminders bench: ten accounts and COUNT meetings, each with the default 15-minute
// e-mail reminder, whose reminders fall due one after another from BASE (unix ms) over SPREAD_MS.
// Through createEvent, as POST /api/event does, so the reminders are planned as in the app.
// Prints {"first": dueMs, "last": dueMs} on its last line.
import { closeDb, getDb } from '@/lib/db/client';
import { createEvent } from '@/lib/events/create';
import { eventSchema } from '@/lib/events/schemas';
import { insertUser } from '@/lib/users/create';

const count = Number(process.env.COUNT);
const base = Number(process.env.BASE);
const spread = Number(process.env.SPREAD_MS);
const LEAD_MS = 15 * 60_000;

/** Ten owners, seeded side by side: createEvent locks its owner, so one owner would go one at a time. */
const OWNERS = 10;

async function main() {
  const db = await getDb();
  const owners = await Promise.all(
    Array.from({ length: OWNERS }, (_, n) =>
      insertUser(db, {
        email: `reminders-${n}-${Date.now()}@bench.test`,
        firstName: 'Bench',
        lastName: 'Reminders',
        passwordHash: 'unused',
        state: 'active',
        verifiedAt: new Date(),
        timezone: 'Europe/London',
        accountType: 'executive',
        numberOfRooms: 30,
      }),
    ),
  );
  const dueTimes: number[] = [];
  await Promise.all(
    owners.map(async (owner, n) => {
      for (let i = n; i < count; i += OWNERS) {
        const from = Math.ceil((base + (i * spread) / count + LEAD_MS) / 1000);
        dueTimes.push(from * 1000 - LEAD_MS);
        const input = eventSchema.parse({ title: `Bench reminder ${String(i).padStart(4, '0')}`, from, timezone: 'Europe/London' });
        await createEvent(owner, input);
      }
    }),
  );
  await closeDb();
  console.log(JSON.stringify({ first: Math.min(...dueTimes), last: Math.max(...dueTimes) }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
