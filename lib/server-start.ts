import 'server-only';
import { log } from '@/lib/log';
import { checkStartup } from '@/lib/startup-checks';

/**
 * What the Node.js server does once at start (instrumentation.ts): stop on a setting that would
 * make it unsafe or half-broken (lib/startup-checks.ts), open the database and apply migrations
 * before any request, then start sending the mail queued in the outbox and the meeting reminders
 * that fall due, and the job that keeps billing in line with Stripe. Its own module, imported
 * only under the Node.js runtime, so that the Edge build never sees process.exit.
 */
export async function startServer() {
  // server/server.mjs gives each request its id and counts it through this (lib/metrics/request-start.ts).
  const { registerRequestStart } = await import('@/lib/metrics/request-start');
  registerRequestStart();
  const { registerDatabaseErrorCount } = await import('@/lib/metrics/database');
  registerDatabaseErrorCount();
  const { problems, notes } = checkStartup();
  for (const note of notes) log.info(note);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  const { getDb } = await import('@/lib/db/client');
  const { DataDirInUseError } = await import('@/lib/db/data-dir-lock');
  await getDb().catch((error) => {
    // Another process has the embedded database open: waiting would not help, two would corrupt it.
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(`Enclave will not start: ${error.message}`);
    process.exit(1);
  });
  const { startMailWorker } = await import('@/lib/mail');
  const { startReminderWorker } = await import('@/lib/events/reminders');
  const { startBillingReconcile } = await import('@/lib/billing/reconcile');
  // While there is no admin: a one-time setup link in the log (issue 48, point 5).
  const { announceSetupLinks } = await import('@/lib/admin/first-admin');
  const stopWorkers = [startMailWorker(), startReminderWorker(), startBillingReconcile(), announceSetupLinks()];
  // server/shutdown.mjs stops them, and the rest, on SIGTERM or SIGINT.
  const { registerShutdown } = await import('@/lib/server-shutdown');
  registerShutdown(stopWorkers);
  // server/server.mjs answers the calendar's compact form and signaling's POSTs through them (issue 17).
  const { registerFastPaths } = await import('@/lib/fast-paths');
  registerFastPaths();
}
