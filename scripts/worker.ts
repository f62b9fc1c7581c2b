// `npm run worker`: the mail and reminder workers on their own, without the web server — for an
// extra instance, or for tests that stop and restart the process. Stops on SIGTERM / SIGINT.
import { closeDb, getDb } from '@/lib/db/client';
import { startBillingReconcile } from '@/lib/billing/reconcile';
import { startReminderWorker } from '@/lib/events/reminders';
import { assertMailConfigured, startMailWorker } from '@/lib/mail';

async function main() {
  assertMailConfigured();
  await getDb();
  const stops = [startMailWorker(), startReminderWorker(), startBillingReconcile()];
  // The timers do not keep the process alive; this does, until a signal.
  const alive = setInterval(() => {}, 60_000);
  console.log('worker ready');
  const stop = async () => {
    for (const s of stops) s();
    clearInterval(alive);
    await closeDb();
    console.log('worker stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
