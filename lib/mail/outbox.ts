import 'server-only';
import { createHash } from 'node:crypto';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { config } from '@/lib/environment';
import { processSlot } from '@/lib/process-slot';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { mailOutbox } from '@/lib/db/schema';
import type { Locale } from '@/lib/i18n/locales';
import { describeError, log } from '@/lib/log';
import { countDatabaseError } from '@/lib/metrics/database';
import { renderMail, type MailInput } from './templates';
import { MAIL_NOT_CONFIGURED, mailMode } from './mode';
import { getTransport, smtpErrorMessage } from './transport';

export type EnqueueMailInput = MailInput & {
  to: string;
  locale: Locale;
  /** Only one mail is ever queued per key, e.g. one reminder per (occurrence, recipient). */
  idempotencyKey?: string;
  sendAfter?: Date;
  /** Text attachments; a text/calendar one (an .ics invitation) is also sent as the iTIP part. */
  attachments?: { filename: string; content: string; contentType: string }[];
};

/**
 * Queues a mail in the caller's database or transaction, so that it commits or rolls back with
 * the change it is about. Call kickMailWorker() after the commit to send it at once.
 */
export async function enqueueMail(db: Database | Transaction, input: EnqueueMailInput): Promise<void> {
  const mail = await renderMail(input.locale, input.template, input.data);
  await db
    .insert(mailOutbox)
    .values({
      to: input.to,
      ...mail,
      idempotencyKey: input.idempotencyKey,
      sendAfter: input.sendAfter,
      attachments: input.attachments ?? [],
    })
    .onConflictDoNothing({ target: mailOutbox.idempotencyKey });
  // What a log may say of a mail: that one was queued, for whom (a hash) and which; never its text.
  log.info('mail queued', { to: createHash('sha256').update(input.to.toLowerCase()).digest('hex').slice(0, 16), template: input.template });
}

const MAX_ATTEMPTS = 10;

/** Seconds until the next try after `attempts` failures: 30 s, 1 min, 2 min … at most 1 h. */
function backoffSeconds(attempts: number): number {
  return Math.min(30 * 2 ** (attempts - 1), 3600);
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * How long a claim holds: longer than one send can take (10 s to connect, 10 s for the greeting,
 * 30 s of silence at most: lib/mail/transport.ts), short because a process killed while sending
 * leaves its claimed rows waiting this long (issue 20: 5 minutes made the p99 delay 304 s).
 */
const CLAIM_SECONDS = 90;

/**
 * Claims up to `limit` due rows by moving their send_after CLAIM_SECONDS ahead: rows locked by
 * another instance are skipped, and a claimed row is no longer due, so no row is sent twice.
 * Should this process die while sending, the row becomes due again when the claim runs out.
 */
function claimDueMail(db: Database, limit: number): Promise<OutboxRow[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.sendAfter, sql`now()`)))
    .orderBy(mailOutbox.sendAfter)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({ sendAfter: sql`now() + ${`${CLAIM_SECONDS} seconds`}::interval` })
    .where(inArray(mailOutbox.id, due))
    .returning();
}

/** Sends one claimed row and records the outcome; true when it was delivered. */
async function deliver(db: Database, row: OutboxRow): Promise<boolean> {
  const transport = getTransport();
  // An invitation goes as the text/calendar alternative that Outlook, Google and Apple act on
  // (nodemailer also attaches it as invite.ics); METHOD comes from its content type.
  const calendar = row.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  try {
    if (transport) {
      await transport.sendMail({
        to: row.to,
        subject: row.subject,
        html: row.html,
        text: row.text,
        attachments: row.attachments.filter((a) => a !== calendar),
        icalEvent: calendar && {
          filename: calendar.filename,
          method: /method=(\w+)/i.exec(calendar.contentType)?.[1] ?? 'REQUEST',
          content: calendar.content,
        },
        // The same id on a repeated send lets mail systems drop the duplicate.
        messageId: `<${row.id}@${new URL(config.appUrl).hostname}>`,
      });
    } else {
      // Without SMTP_URL (development, or MAIL_LOG=1): the log and /dev/mailbox are the mailbox.
      log.info('mail (dev mailbox)', { to: row.to, subject: row.subject, text: row.text });
    }
  } catch (error) {
    const attempts = row.attempts + 1;
    const lastError = smtpErrorMessage(error);
    await db
      .update(mailOutbox)
      .set({
        attempts,
        lastError,
        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        sendAfter: sql`now() + ${`${backoffSeconds(attempts)} seconds`}::interval`,
      })
      .where(eq(mailOutbox.id, row.id));
    log.warn('mail delivery failed', { mailId: row.id, attempts, error: lastError });
    return false;
  }
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt: sql`now()`, lastError: null })
    .where(eq(mailOutbox.id, row.id));
  return true;
}

/** Sends the mail that is due; safe to run in several processes at once. */
export async function deliverDueMail(options: { limit?: number } = {}): Promise<{ sent: number; failed: number }> {
  const db = await getDb();
  const rows = await claimDueMail(db, options.limit ?? 10);
  // In parallel, one connection each: a slow server delays the batch by one send, not by all.
  const results = await Promise.all(rows.map((row) => deliver(db, row)));
  const sent = results.filter(Boolean).length;
  return { sent, failed: results.length - sent };
}

const POLL_MS = 5_000;
const BATCH = 10;

interface WorkerState {
  timer?: NodeJS.Timeout;
  running: boolean;
  /** A kick arrived during a run, which may have claimed its rows before that mail committed. */
  again: boolean;
}

// One per process: the worker starts in instrumentation, but route handlers (bundled apart) kick it.
const worker = processSlot<WorkerState>('mail.worker').getOrCreate(() => ({ running: false, again: false }));

/** Sends due mail now and then every few seconds, one run at a time. Returns the stop function. */
/** Throws when this server must not run: production without SMTP_URL or MAIL_LOG=1 (lib/mail/mode.ts). */
export function assertMailConfigured(): void {
  if (mailMode(config) === 'refuse') throw new Error(MAIL_NOT_CONFIGURED);
}

export function startMailWorker(): () => void {
  if (!worker.timer) {
    worker.timer = setInterval(kickMailWorker, POLL_MS);
    worker.timer.unref(); // never what keeps the process alive
    kickMailWorker();
  }
  return () => {
    clearInterval(worker.timer);
    worker.timer = undefined;
  };
}

/**
 * Runs the worker now (after a commit that queued mail). Without a started worker — tests,
 * scripts — it does nothing and the mail waits in the outbox.
 */
export function kickMailWorker(): void {
  if (!worker.timer) return;
  if (worker.running) {
    worker.again = true;
    return;
  }
  worker.running = true;
  void drain().finally(() => {
    worker.running = false;
    if (worker.again) {
      worker.again = false;
      kickMailWorker();
    }
  });
}

async function drain(): Promise<void> {
  try {
    for (;;) {
      const { sent, failed } = await deliverDueMail({ limit: BATCH });
      if (sent + failed < BATCH) return; // a full batch means that more mail may be due
    }
  } catch (error) {
    countDatabaseError(error);
    log.error('mail worker: delivery run failed', describeError(error));
  }
}
