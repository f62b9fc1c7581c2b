// `npm run db:seed`: a demo account to look around with (README "Demo account").
// Writes the created ids as JSON to stdout's last line, for scripts that need them.
import { closeDb, getDb } from '@/lib/db/client';
import { DEMO_PASSWORD, seedAccount } from './seed-account';

async function main() {
  const seeded = await seedAccount(await getDb(), {
    email: process.env.SEED_EMAIL ?? 'demo@enclave.local',
    password: process.env.SEED_PASSWORD ?? DEMO_PASSWORD,
    trial: process.env.SEED_TRIAL === '1',
    trialEnded: process.env.SEED_TRIAL_ENDED === '1',
    meetingCard: process.env.SEED_MCARD === '1',
  });
  console.log(`Demo account ready: ${seeded.email}`);
  console.log(JSON.stringify(seeded));
  await closeDb();
}

main().catch(async (error) => {
  console.error(error);
  await closeDb();
  process.exit(1);
});
