import { databaseUnavailableCode } from '@/lib/db/unavailable';
import { markDatabaseUnavailable } from '@/lib/db/unavailable-request';
import { log } from '@/lib/log';

// Runs once when the server starts: open the database and apply migrations before any request,
// then start sending the mail queued in the outbox and the meeting reminders that fall due, and
// the job that keeps billing in line with Stripe.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // A setting that would make the server unsafe or half-broken stops it here, named (lib/startup-checks.ts).
  const { checkStartup } = await import('@/lib/startup-checks');
  const { problems, notes } = checkStartup();
  for (const note of notes) log.info(note);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exit(1);
  }
  const { getDb } = await import('@/lib/db/client');
  await getDb();
  const { startMailWorker } = await import('@/lib/mail');
  startMailWorker();
  const { startReminderWorker } = await import('@/lib/events/reminders');
  startReminderWorker();
  const { startBillingReconcile } = await import('@/lib/billing/reconcile');
  startBillingReconcile();
  // scripts/server.mjs answers the calendar's compact form through it (issue 17).
  const { registerCalendarFastPath } = await import('@/lib/events/calendar-fast-path');
  registerCalendarFastPath();
  // And signaling's POSTs (issue 17).
  const { registerSignalFastPath } = await import('@/lib/meeting/server/signal-fast-path');
  registerSignalFastPath();
}

/**
 * Every error a page let through. One that says the database cannot be reached marks the
 * request, so that scripts/server.mjs answers it 503 with Retry-After and the translated
 * "unavailable" page instead of Next.js's 500 (lib/db/unavailable-request.ts). Synchronous, and
 * with static imports: the mark must be there before Next.js writes the error page's status.
 */
export function onRequestError(error: unknown, _request: unknown, context: { routePath: string }) {
  const code = databaseUnavailableCode(error);
  if (code && markDatabaseUnavailable(code)) log.warn('database unavailable', { code, route: context.routePath });
}
