// `npm run db:seed`: a demo account to look around with (README "Demo account").
// Writes the created ids as JSON to stdout's last line, for scripts that need them.
import { eq, sql } from 'drizzle-orm';
import { closeDb, getDb } from '@/lib/db/client';
import { rooms, users } from '@/lib/db/schema';
import { hashPassword } from '@/lib/auth/password';
import { insertUser } from '@/lib/users/create';

const DEMO_EMAIL = process.env.SEED_EMAIL ?? 'demo@enclave.local';
// A fixed, documented password for a local demo only; never seed a public server with it.
const DEMO_PASSWORD = process.env.SEED_PASSWORD ?? 'Demo-Meeting-2026';

async function main() {
  const db = await getDb();
  const [existing] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${DEMO_EMAIL}`);
  const user =
    existing ??
    (await insertUser(db, {
      email: DEMO_EMAIL,
      firstName: 'Demo',
      lastName: 'User',
      passwordHash: await hashPassword(DEMO_PASSWORD),
      role: 'admin',
      state: 'active',
      verifiedAt: new Date(),
      timezone: 'Europe/London',
      // An executive plan (up to 30 rooms, SPEC point 9), so rooms can be added next to the demo room.
      accountType: 'executive',
      numberOfRooms: 30,
      // SEED_TRIAL=1: an account still in its trial (meetings of at most 2 participants).
      isTrial: process.env.SEED_TRIAL === '1' || process.env.SEED_TRIAL_ENDED === '1',
      // SEED_TRIAL_ENDED=1: a trial that ended without a plan (the billing modal, no meetings).
      ...(process.env.SEED_TRIAL_ENDED === '1' && { trialEndsAt: new Date(Date.now() - 24 * 60 * 60 * 1000) }),
      // A meeting-card account (SPEC point 6), for trying that variant of the app.
      enableMCard: process.env.SEED_MCARD === '1',
    }));
  const [room] = await db.select().from(rooms).where(eq(rooms.ownerId, user.id)).limit(1);
  if (!room) {
    await db.insert(rooms).values({
      ownerId: user.id,
      name: 'Demo room',
      color: 3,
      isDefault: true,
      adminName: `${user.firstName} ${user.lastName}`,
      adminEmail: user.email,
      meetingId: `demo-${user.hash.slice(0, 8)}`,
    });
  }
  console.log(`Demo account ready: ${user.email}`);
  const [demoRoom] = await db.select().from(rooms).where(eq(rooms.ownerId, user.id)).limit(1);
  console.log(JSON.stringify({ userId: user.id, email: user.email, sessionVersion: user.sessionVersion, meetingId: demoRoom?.meetingId }));
  await closeDb();
}

main().catch(async (error) => {
  console.error(error);
  await closeDb();
  process.exit(1);
});
