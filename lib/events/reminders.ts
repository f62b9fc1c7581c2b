import 'server-only';
import { and, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { getDb, type Transaction } from '@/lib/db/client';
import { eventExceptions, eventNotifications, eventReminders, events, type Event } from '@/lib/db/schema';
import { isLocale } from '@/lib/i18n/locales';
import { describeError, log } from '@/lib/log';
import { processSlot } from '@/lib/process-slot';
import { enqueueMail, kickMailWorker } from '@/lib/mail';
import { countDatabaseError } from '@/lib/metrics/database';
import { recordReminderLag } from '@/lib/metrics/reminders';
import { seriesOf } from '@/lib/recurrence/series';
import { reminderData } from './mail';
import { expandSeries } from '@/lib/recurrence/exceptions';
import { loadParticipants } from './participants';
import { leadMinutes, notificationKey } from '@/lib/event-rules/limits';

/**
 * Reminders are planned for the occurrences of the next 8 days (at most 1 day of lead + a week
 * of slack); the worker's sweep extends the horizon of series without end as time goes on.
 */
export const REMINDER_HORIZON_MS = 8 * 86_400_000;

const unix = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Plans the reminders of an event in the caller's transaction: one row per (occurrence,
 * recipient, kind). With `replace`, the rows not sent yet are dropped first (the event moved or
 * changed). The key names the occurrence by its original start and its actual start, so a moved
 * occurrence is reminded again at its new time, and a second planning of the same one is a no-op.
 */
export async function planReminders(tx: Transaction, event: Event, options: { now?: Date; replace?: boolean } = {}) {
  const now = options.now ?? new Date();
  if (options.replace ?? true) {
    await tx.delete(eventReminders).where(and(eq(eventReminders.eventId, event.id), eq(eventReminders.status, 'pending')));
  }
  if (event.cancelledAt) return;
  const notifications = await tx.select().from(eventNotifications).where(eq(eventNotifications.eventId, event.id));
  if (!notifications.length) return;
  const maxLeadMs = Math.max(...notifications.map(leadMinutes)) * 60_000;
  const until = new Date(now.getTime() + REMINDER_HORIZON_MS + maxLeadMs);
  const exceptions = event.rrule ? await tx.select().from(eventExceptions).where(eq(eventExceptions.eventId, event.id)) : [];
  const occurrences = expandSeries(seriesOf(event), exceptions, now, until).filter((o) => o.start > now);
  if (!occurrences.length) return;
  const recipients = await loadParticipants(tx, event.id);
  const rows: (typeof eventReminders.$inferInsert)[] = [];
  for (const occurrence of occurrences) {
    for (const notification of notifications) {
      const dueAt = new Date(occurrence.start.getTime() - leadMinutes(notification) * 60_000);
      if (dueAt < now || dueAt.getTime() > now.getTime() + REMINDER_HORIZON_MS) continue;
      const kind = notificationKey(notification);
      for (const person of recipients) {
        rows.push({
          eventId: event.id,
          occurrenceStart: occurrence.originalStart,
          startsAt: occurrence.start,
          email: person.email,
          locale: person.lang,
          kind,
          dueAt,
          idempotencyKey: `reminder:${event.id}:${unix(occurrence.originalStart)}:${unix(occurrence.start)}:${person.email.toLowerCase()}:${kind}`,
        });
      }
    }
  }
  for (let i = 0; i < rows.length; i += 500) {
    await tx
      .insert(eventReminders)
      .values(rows.slice(i, i + 500))
      .onConflictDoNothing({ target: eventReminders.idempotencyKey });
  }
}

/** Drops the reminders not sent yet of one occurrence (it was cancelled). */
export async function dropOccurrenceReminders(tx: Transaction, eventId: string, originalStart: Date) {
  await tx
    .delete(eventReminders)
    .where(and(eq(eventReminders.eventId, eventId), eq(eventReminders.occurrenceStart, originalStart), eq(eventReminders.status, 'pending')));
}

/**
 * Extends the planned horizon of every event that is still to come; rows that exist are kept
 * (ON CONFLICT DO NOTHING on the key). Runs at the worker's start and every few minutes.
 */
export async function sweepReminders(now = new Date()): Promise<void> {
  const db = await getDb();
  const horizon = new Date(now.getTime() + REMINDER_HORIZON_MS + 2 * 86_400_000);
  const candidates = await db
    .selectDistinct({ id: events.id })
    .from(events)
    .innerJoin(eventNotifications, eq(eventNotifications.eventId, events.id))
    .where(and(isNull(events.cancelledAt), lt(events.startsAt, horizon), or(isNull(events.endsAt), gt(events.endsAt, now))));
  for (const { id } of candidates) {
    await db.transaction(async (tx) => {
      const [event] = await tx.select().from(events).where(eq(events.id, id));
      if (event) await planReminders(tx, event, { now, replace: false });
    });
  }
}

/**
 * Sends the reminders that are due: claims them with FOR UPDATE SKIP LOCKED (several instances
 * never take the same row), queues each mail in the outbox under the reminder's idempotency key
 * and marks the row sent, all in one transaction: a crash before the commit leaves the row due,
 * a crash after it leaves the mail in the outbox, and the outbox's unique key drops a second copy.
 * A reminder whose meeting has begun meanwhile (the app was down) is skipped, not sent late.
 */
export async function deliverDueReminders(options: { limit?: number; now?: Date } = {}): Promise<number> {
  const db = await getDb();
  const now = options.now ?? new Date();
  // The due times of the reminders queued, for their lag (recorded once the transaction commits).
  const sent: Date[] = [];
  const queued = await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(eventReminders)
      .where(and(eq(eventReminders.status, 'pending'), lte(eventReminders.dueAt, now)))
      .orderBy(eventReminders.dueAt)
      .limit(options.limit ?? 50)
      .for('update', { skipLocked: true });
    if (!due.length) return 0;
    const ids = [...new Set(due.map((r) => r.eventId))];
    const owners = await tx.select().from(events).where(inArray(events.id, ids));
    let count = 0;
    for (const reminder of due) {
      const event = owners.find((e) => e.id === reminder.eventId);
      const sendable = event && !event.cancelledAt && reminder.startsAt > now;
      if (sendable) {
        const locale = isLocale(reminder.locale) ? reminder.locale : 'en';
        const data = await reminderData(tx, event, { ...reminder, locale });
        const [, time, timeType] = reminder.kind.split(':');
        await enqueueMail(tx, {
          to: reminder.email,
          locale,
          template: 'eventReminder',
          data: { ...data, leadMinutes: leadMinutes({ time: Number(time), timeType: timeType as 'minutes' }) },
          idempotencyKey: reminder.idempotencyKey,
        });
        count += 1;
        sent.push(reminder.dueAt);
      }
      await tx
        .update(eventReminders)
        .set({ status: sendable ? 'sent' : 'skipped', processedAt: sql`now()` })
        .where(eq(eventReminders.id, reminder.id));
    }
    return count;
  });
  recordReminderLag(sent, now);
  if (queued) kickMailWorker();
  return queued;
}

const POLL_MS = 5_000;
const SWEEP_MS = 10 * 60_000;

interface WorkerState {
  timers: NodeJS.Timeout[];
  running: boolean;
}
// One per process: instrumentation starts it, scripts/worker.ts too, each in its own bundle.
const worker = processSlot<WorkerState>('events.reminderWorker').getOrCreate(() => ({ timers: [], running: false }));

async function tick(sweep: boolean) {
  if (worker.running) return;
  worker.running = true;
  try {
    if (sweep) await sweepReminders();
    while ((await deliverDueReminders()) >= 50);
  } catch (error) {
    countDatabaseError(error);
    log.error('reminder worker: run failed', describeError(error));
  } finally {
    worker.running = false;
  }
}

/** Starts the reminder worker (instrumentation.ts, scripts/worker.ts). Returns the stop function. */
export function startReminderWorker(): () => void {
  if (!worker.timers.length) {
    worker.timers = [setInterval(() => void tick(false), POLL_MS), setInterval(() => void tick(true), SWEEP_MS)];
    for (const timer of worker.timers) timer.unref();
    void tick(true);
  }
  return () => {
    for (const timer of worker.timers) clearInterval(timer);
    worker.timers = [];
  };
}
