// Seeds the reminders bench: one account and COUNT meetings, each with the default 15-minute
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

async function main() {
  const db = await getDb();
  const user = await insertUser(db, {
    email: `reminders-${Date.now()}@bench.test`,
    firstName: 'Bench',
    lastName: 'Reminders',
    passwordHash: 'unused',
    state: 'active',
    verifiedAt: new Date(),
    timezone: 'Europe/London',
    accountType: 'executive',
    numberOfRooms: 30,
  });
  let first = Infinity;
  let last = 0;
  for (let i = 0; i < count; i += 1) {
    const from = Math.ceil((base + (i * spread) / count + LEAD_MS) / 1000);
    first = Math.min(first, from * 1000 - LEAD_MS);
    last = Math.max(last, from * 1000 - LEAD_MS);
    const input = eventSchema.parse({ title: `Bench reminder ${String(i).padStart(4, '0')}`, from, timezone: 'Europe/London' });
    await createEvent(user, input);
  }
  await closeDb();
  console.log(JSON.stringify({ first, last }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
