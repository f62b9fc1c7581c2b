// One account with its demo room, made once: `npm run db:seed` (scripts/seed.ts) makes the demo
// account, and the end-to-end tests theirs (tests/e2e/support/seed-accounts.ts), in one process.
import { eq, sql } from 'drizzle-orm';
import type { getDb } from '@/lib/db/client';
import { rooms, users } from '@/lib/db/schema';
import { hashPassword } from '@/lib/auth/password';
import { insertUser } from '@/lib/users/create';

// A fixed, documented password for a local demo only; never seed a public server with it.
export const DEMO_PASSWORD = 'Demo-Meeting-2026';

export interface SeedOptions {
  email: string;
  password: string;
  /** An account still in its trial (meetings of at most 2 participants). */
  trial?: boolean;
  /** A trial that ended without a plan (the billing modal, no meetings). */
  trialEnded?: boolean;
  /** A meeting-card account (SPEC point 6), for trying that variant of the app. */
  meetingCard?: boolean;
}

export interface SeededAccount {
  userId: string;
  email: string;
  sessionVersion: number;
  meetingId: string | undefined;
}

/** The account of `options.email`, made if it does not exist yet, and its room. */
export async function seedAccount(db: Awaited<ReturnType<typeof getDb>>, options: SeedOptions): Promise<SeededAccount> {
  const [existing] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${options.email}`);
  const user =
    existing ??
    (await insertUser(db, {
      email: options.email,
      firstName: 'Demo',
      lastName: 'User',
      passwordHash: await hashPassword(options.password),
      role: 'admin',
      state: 'active',
      verifiedAt: new Date(),
      timezone: 'Europe/London',
      // An executive plan (up to 30 rooms, SPEC point 9), so rooms can be added next to the demo room.
      accountType: 'executive',
      numberOfRooms: 30,
      isTrial: Boolean(options.trial || options.trialEnded),
      ...(options.trialEnded && { trialEndsAt: new Date(Date.now() - 24 * 60 * 60 * 1000) }),
      enableMCard: Boolean(options.meetingCard),
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
  const [demoRoom] = await db.select().from(rooms).where(eq(rooms.ownerId, user.id)).limit(1);
  return { userId: user.id, email: user.email, sessionVersion: user.sessionVersion, meetingId: demoRoom?.meetingId };
}
