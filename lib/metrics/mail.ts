import 'server-only';
import { Gauge } from 'prom-client';
import { inArray, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { mailOutbox } from '@/lib/db/schema';
import { describeError, log } from '@/lib/log';
import { metric, PREFIX } from './registry';
import { sharedReading } from './shared-reading';

interface OutboxFigures {
  pending: number;
  failed: number;
  oldestDueSeconds: number;
}

/** The outbox as the database has it now: one query, on the (status, send_after) index. */
export async function readOutbox(): Promise<OutboxFigures> {
  const db = await getDb();
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${mailOutbox.status} = 'pending')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${mailOutbox.status} = 'failed')`.mapWith(Number),
      oldest: sql<
        number | null
      >`extract(epoch from now() - min(${mailOutbox.createdAt}) filter (where ${mailOutbox.status} = 'pending' and ${mailOutbox.sendAfter} <= now()))`.mapWith(
        Number,
      ),
    })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ['pending', 'failed']));
  return { pending: row?.pending ?? 0, failed: row?.failed ?? 0, oldestDueSeconds: Math.max(0, row?.oldest ?? 0) };
}

// All three gauges from one query per scrape.
const outbox = sharedReading(() =>
  readOutbox().catch((error) => {
    log.warn('metrics: the mail outbox could not be read', describeError(error));
    return null;
  }),
);

metric(
  `${PREFIX}mail_outbox_depth`,
  (registers) =>
    new Gauge({
      name: `${PREFIX}mail_outbox_depth`,
      help: 'Mails waiting in the outbox (due now or scheduled), read at scrape time',
      registers,
      async collect() {
        const figures = await outbox();
        if (figures) this.set(figures.pending);
        else this.set(NaN); // unknown, not zero
      },
    }),
);

metric(
  `${PREFIX}mail_outbox_oldest_age_seconds`,
  (registers) =>
    new Gauge({
      name: `${PREFIX}mail_outbox_oldest_age_seconds`,
      help: 'Age since it was queued of the oldest mail that is due and not sent yet (0: none), read at scrape time',
      registers,
      async collect() {
        const figures = await outbox();
        if (figures) this.set(figures.oldestDueSeconds);
        else this.set(NaN); // unknown, not zero
      },
    }),
);

metric(
  `${PREFIX}mail_outbox_failed`,
  (registers) =>
    new Gauge({
      name: `${PREFIX}mail_outbox_failed`,
      help: 'Mails given up after their last attempt (status failed), read at scrape time',
      registers,
      async collect() {
        const figures = await outbox();
        if (figures) this.set(figures.failed);
        else this.set(NaN); // unknown, not zero
      },
    }),
);
