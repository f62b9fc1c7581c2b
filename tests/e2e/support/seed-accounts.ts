// The end-to-end tests' accounts (tests/e2e/support/session.ts SeededName), made in one process by
// tests/e2e/support/serve.mjs: one tsx start and one opening of the database instead of one per
// account, about 3 s each on a two-core machine. Prints them as JSON, by name, on its last line.
import { closeDb, getDb } from '@/lib/db/client';
import { DEMO_PASSWORD, seedAccount, type SeedOptions } from '@/scripts/seed-account';

const ACCOUNTS: Record<string, Omit<SeedOptions, 'password'>> = {
  demo: { email: 'demo@enclave.local' },
  card: { email: 'card@enclave.local', meetingCard: true },
  reset: { email: 'reset@enclave.local' },
  trial: { email: 'trial@enclave.local', trial: true },
  // Billing tests change their accounts' plans: accounts of their own.
  billing: { email: 'billing@enclave.local', trial: true },
  billingOffline: { email: 'billing-offline@enclave.local', trial: true },
  trialEnded: { email: 'trial-ended@enclave.local', trialEnded: true },
};

async function main() {
  const db = await getDb();
  const seeded: Record<string, unknown> = {};
  // One after the other: the embedded database takes one writer.
  for (const [name, options] of Object.entries(ACCOUNTS)) seeded[name] = await seedAccount(db, { ...options, password: DEMO_PASSWORD });
  console.log(JSON.stringify(seeded));
  await closeDb();
}

main().catch(async (error) => {
  console.error(error);
  await closeDb();
  process.exit(1);
});
