import 'server-only';
import { Gauge, Histogram } from 'prom-client';
import { and, eq, lte, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { eventReminders } from '@/lib/db/schema';
import { describeError, log } from '@/lib/log';
import { metric, PREFIX } from './registry';

const lag = metric(
  `${PREFIX}reminder_lag_seconds`,
  (registers) =>
    new Histogram({
      name: `${PREFIX}reminder_lag_seconds`,
      help: 'How late each meeting reminder was queued for sending, after its due time (the worker looks every 5 s)',
      buckets: [1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers,
    }),
);

const lastLag = metric(
  `${PREFIX}reminder_last_lag_seconds`,
  (registers) =>
    new Gauge({
      name: `${PREFIX}reminder_last_lag_seconds`,
      help: 'The greatest lag of the last run of this instance that sent reminders',
      registers,
    }),
);

/** Records the lag of the reminders one run queued (due times, and when the run took them). */
export function recordReminderLag(dueTimes: Date[], now: Date): void {
  if (!dueTimes.length) return;
  const lags = dueTimes.map((due) => Math.max(0, (now.getTime() - due.getTime()) / 1000));
  for (const seconds of lags) lag.observe(seconds);
  lastLag.set(Math.max(...lags));
}

metric(
  `${PREFIX}reminder_oldest_overdue_seconds`,
  (registers) =>
    new Gauge({
      name: `${PREFIX}reminder_oldest_overdue_seconds`,
      help: 'How long the oldest reminder that is due has waited unsent (0: none), read at scrape time: grows when no worker runs',
      registers,
      async collect() {
        try {
          const db = await getDb();
          const [row] = await db
            .select({ oldest: sql<number | null>`extract(epoch from now() - min(${eventReminders.dueAt}))`.mapWith(Number) })
            .from(eventReminders)
            .where(and(eq(eventReminders.status, 'pending'), lte(eventReminders.dueAt, sql`now()`)));
          this.set(Math.max(0, row?.oldest ?? 0));
        } catch (error) {
          log.warn('metrics: the reminders could not be read', describeError(error));
          this.set(NaN); // unknown, not zero
        }
      },
    }),
);
